import { PassThrough } from 'node:stream';
import { Code } from '@luntan/shared';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

/**
 * Every route that takes an image decodes it with sharp. A file whose header is whole but whose data is not (a
 * bad checksum, a cut-off JPEG) passes the header check and fails only when decoded: that is the client's broken
 * file (-4001, said in words), never a 500 with a stack trace in the log.
 */
let member: string;
const log: { level: number; msg: string }[] = [];

/** Noise, so that the PNG holds several IDAT chunks and the JPEG's data is long. */
const noisy = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  });

let badPng: Buffer;
let cutJpeg: Buffer;
let hugePng: Buffer;

// The server's log, to check what it wrote about each refusal.
const stream = new PassThrough();
stream.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n').filter(Boolean)) log.push(JSON.parse(line) as never);
});
const t = useTestServer({ logStream: stream });

beforeAll(async () => {
  member = (await buildUser(t)).token;

  // The first IDAT chunk's checksum flipped: the header reads, the pixels do not ("libspng read error").
  badPng = Buffer.from(await noisy(300, 200).png().toBuffer());
  const idat = badPng.indexOf('IDAT');
  badPng[idat + 4 + badPng.readUInt32BE(idat - 4)]! ^= 0xff;
  const jpeg = await noisy(300, 200).jpeg().toBuffer();
  cutJpeg = jpeg.subarray(0, Math.floor(jpeg.length / 2));
  // 48 megapixels of one colour: a small file that would take 144 MB to decode.
  hugePng = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
});

function multipart(fields: Record<string, string>, file: { field: string; name: string; data: Buffer }) {
  const boundary = `----images${Date.now()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Each way an image reaches the server: the route, who may call it, and how the file travels. */
const ROUTES = [
  { name: 'avatar', url: '/api/v3/users/avatar', field: 'avatar', fields: {}, as: 'member' },
  { name: 'profile background', url: '/api/v3/users/background', field: 'background', fields: {}, as: 'member' },
  // Thread and reply images and private-message images are all attachments.
  { name: 'attachment', url: '/api/v3/attachments', field: 'file', fields: { type: 'image' }, as: 'member' },
  { name: 'site logo (form)', url: '/api/settings/logo.v2', field: 'logo', fields: { type: 'logo' }, as: 'admin' },
  { name: 'site logo (data URL)', url: '/api/settings/logo.v2', field: 'logo', json: true, as: 'admin' },
] as const;

async function send(route: (typeof ROUTES)[number], data: Buffer, name: string, locale = 'zh') {
  const token = route.as === 'admin' ? t.admin : member;
  const headers = { cookie: `locale=${locale}` };
  if ('json' in route) {
    const body = JSON.stringify({ type: 'logo', logo: `data:image/png;base64,${data.toString('base64')}` });
    return t.call('POST', route.url, { token, body, headers: { ...headers, 'content-type': 'application/json' } });
  }
  const form = multipart(route.fields, { field: route.field, name, data });
  return t.call('POST', route.url, { token, body: form.body, headers: { ...headers, ...form.headers } });
}

describe('images the decoder refuses', () => {
  it.each(ROUTES)('$name: a damaged PNG and a cut-off JPEG are -4001 in words, with no error in the log', async (r) => {
    for (const [file, name] of [
      [badPng, 'broken.png'],
      [cutJpeg, 'cut.jpg'],
    ] as const) {
      log.length = 0;
      const zh = await send(r, file, name);
      expect(zh.status, name).toBe(200);
      expect(zh.body.Code, name).toBe(Code.INVALID_PARAMETER);
      expect(zh.body.Data, name).toEqual({ field: r.field });
      expect(zh.body.Message, name).toBe('图片已损坏，无法读取，请换一张图片');
      const en = await send(r, file, name, 'en');
      expect(en.body.Code, name).toBe(Code.INVALID_PARAMETER);
      expect(en.body.Message, name).toBe('The image is damaged and cannot be read: please choose another one');
      expect(
        log.filter((l) => l.level >= 50),
        name,
      ).toEqual([]);
    }
  });

  it.each(ROUTES)('$name: an image over 40 megapixels is refused as too large, not as the wrong type', async (r) => {
    const zh = await send(r, hugePng, 'huge.png');
    expect(zh.body.Code).toBe(Code.INVALID_PARAMETER);
    expect(zh.body.Data).toEqual({ field: r.field });
    expect(zh.body.Message).toBe('图片太大了：最多 4000 万像素，请缩小后再上传');
    const en = await send(r, hugePng, 'huge.png', 'en');
    expect(en.body.Message).toBe('The image is too large: at most 40 megapixels. Make it smaller and try again');
  });

  it('a whole image still goes through every route', async () => {
    const good = await noisy(120, 80).png().toBuffer();
    for (const r of ROUTES) expect((await send(r, good, 'good.png')).body.Code, r.name).toBe(0);
  });
});
