import fs from 'node:fs';
import path from 'node:path';
import { Code, GroupId, type AttachmentItem } from '@luntan/shared';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';
import { buildCategory, buildThread, memberPermissions, setGroupPermissions } from '../../test/factories.js';

type User = Awaited<ReturnType<typeof buildUser>>;

const t = useTestServer();
let alice: User;
let memberPerms: string[];
let photo: Buffer;
let animation: Buffer;

/** A multipart/form-data body with some fields and, optionally, one file. */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = `----luntan${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(
  token: string | undefined,
  file: { name: string; type: string; data: Buffer } | undefined,
  fields: Record<string, string> = { type: 'image' },
) {
  const { body, headers } = multipart(fields, file);
  return (await t.call<AttachmentItem>('POST', '/api/v3/attachments', { token, body, headers })).body;
}

const jpeg = (data = photo) => ({ name: 'photo.jpg', type: 'image/jpeg', data });
const image = (url: string, accept = 'image/png,image/*;q=0.8') =>
  t.app.inject({ method: 'GET', url, headers: { accept } });

beforeAll(async () => {
  alice = await buildUser(t);
  memberPerms = await memberPermissions(t, t.admin);
  photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3366aa' } })
    .composite([
      { input: Buffer.from('<svg width="800" height="600"><circle cx="400" cy="300" r="250" fill="#fc0"/></svg>') },
    ])
    .withExif({ IFD0: { Copyright: 'secret place' } })
    .jpeg({ quality: 95 })
    .toBuffer();
  // Ten frames of 50 ms: 20 frames a second.
  const w = 60;
  const h = 40;
  const frames = 10;
  const raw = Buffer.alloc(w * h * frames * 4);
  for (let f = 0; f < frames; f += 1) {
    for (let i = 0; i < w * h; i += 1) raw.set([f * 25, 120, 200, 255], (f * w * h + i) * 4);
  }
  animation = await sharp(raw, { raw: { width: w, height: h * frames, channels: 4, pageHeight: h } })
    .gif({ delay: Array<number>(frames).fill(50), loop: 0 })
    .toBuffer();
});

describe('POST /api/v3/attachments', () => {
  it('stores an image with its display sizes and thumbnail, without its metadata', async () => {
    const res = await upload(alice.token, jpeg());
    expect(res.Code).toBe(0);
    const a = res.Data;
    expect(a).toMatchObject({
      type: 1,
      format: 'jpeg',
      width: 1200,
      height: 900,
      isAnimated: false,
      fileName: 'photo.jpg',
    });
    expect(a.url).toBe(`/api/v3/attachments/${a.fileKey}.jpg`);
    expect(a.sizes.map((s) => [s.name, s.width, s.height])).toEqual([
      ['original', 1200, 900],
      ['large', 1080, 810],
      ['medium', 480, 360],
      ['thumb', 500, 500],
    ]);
    for (const s of a.sizes) {
      const file = path.join(t.storage.dataDir, s.url);
      expect(fs.existsSync(file)).toBe(true);
      const res = await t.app.inject({ method: 'GET', url: s.url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toMatch(/max-age=31536000/);
    }
    const original = await sharp(path.join(t.storage.dataDir, a.sizes[0]!.url)).metadata();
    expect(original.exif).toBeUndefined();
  });

  it('answers the query form: thumbnail, width, quality, WebP by Accept, with cache headers', async () => {
    const a = (await upload(alice.token, jpeg())).Data;
    const plain = await image(a.url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('image/jpeg');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.vary).toBe('Accept');

    const webp = await image(a.url, 'image/avif,image/webp,*/*');
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.rawPayload).metadata()).format).toBe('webp');

    const thumb = await sharp((await image(`${a.url}?level=100`)).rawPayload).metadata();
    expect([thumb.width, thumb.height]).toEqual([500, 500]);
    const narrow = await sharp((await image(`${a.url}?width=700`)).rawPayload).metadata();
    expect(narrow.width).toBe(750);
    const wide = await sharp((await image(`${a.url}?width=5000`)).rawPayload).metadata();
    expect(wide.width).toBe(1200);

    const best = (await image(`${a.url}?level=10`)).rawPayload.length;
    const worst = (await image(`${a.url}?level=70`)).rawPayload.length;
    expect(worst).toBeLessThan(best);
    // The second time it comes from the cache, byte for byte.
    expect((await image(`${a.url}?level=70`)).rawPayload.length).toBe(worst);

    expect((await image(`${a.url}?level=101`)).json().Code).toBe(Code.INVALID_PARAMETER);
    const missing = await image('/api/v3/attachments/AAAAAAAAAAAAAAAAAAAAAA.jpg');
    expect(missing.statusCode).toBe(404);
    expect((await image(`/api/v3/attachments/${a.fileKey}.png`)).statusCode).toBe(404);
    expect((await image('/api/v3/attachments/..%2f..%2fetc.jpg')).json().Code).toBe(Code.INVALID_PARAMETER);
  });

  it('lowers the frame rate of an animated GIF and keeps its speed', async () => {
    const res = await upload(alice.token, { name: 'a.gif', type: 'image/gif', data: animation });
    expect(res.Data).toMatchObject({ format: 'gif', isAnimated: true, width: 60, height: 40 });
    const full = await sharp((await image(res.Data.url)).rawPayload, { animated: true }).metadata();
    expect(full.pages).toBe(10);
    const slow = await sharp((await image(`${res.Data.url}?fps=5`)).rawPayload, { animated: true }).metadata();
    expect(slow.format).toBe('gif');
    expect(slow.pages).toBe(3);
    expect(slow.delay!.reduce((x, y) => x + y, 0)).toBe(500);
    const webp = await image(`${res.Data.url}?fps=10`, 'image/webp');
    const meta = await sharp(webp.rawPayload, { animated: true }).metadata();
    expect([meta.format, meta.pages]).toEqual(['webp', 5]);
  });

  it.each([
    ['text posing as an image', { name: 'x.png', type: 'image/png', data: Buffer.from('hello, not an image') }, 'file'],
    [
      'an SVG',
      {
        name: 'x.svg',
        type: 'image/svg+xml',
        data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      },
      'file',
    ],
    ['an empty file', { name: 'x.jpg', type: 'image/jpeg', data: Buffer.alloc(0) }, 'file'],
  ])('refuses %s with -4001', async (_name, file, field) => {
    const res = await upload(alice.token, file);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
  });

  it('refuses a missing file, a wrong type, a JSON body and an image over the size setting', async () => {
    expect((await upload(alice.token, undefined)).Data).toMatchObject({ field: 'file' });
    expect((await upload(alice.token, jpeg(), { type: 'sticker' })).Data).toMatchObject({ field: 'type' });
    expect((await t.post('/api/v3/attachments', { file: 'x' }, alice.token)).Data).toMatchObject({ field: 'file' });
    await t.post('/api/settings.v2', { data: [{ key: 'attachmentSizeLimit', value: 10, tag: 'default' }] }, t.admin);
    try {
      const res = await upload(alice.token, jpeg());
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
      expect(res.Data).toMatchObject({ field: 'file' });
      expect(res.Message).toBe('图片不能超过 10 KB');
    } finally {
      await t.post(
        '/api/settings.v2',
        { data: [{ key: 'attachmentSizeLimit', value: 5120, tag: 'default' }] },
        t.admin,
      );
    }
  });

  it('needs a login and thread.insertImage, globally or in the category', async () => {
    expect((await upload(undefined, jpeg())).Code).toBe(Code.JUMP_TO_LOGIN);
    const c = await buildCategory(t, t.admin);
    await setGroupPermissions(
      t,
      t.admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => p !== 'thread.insertImage'),
    );
    try {
      expect((await upload(alice.token, jpeg())).Code).toBe(Code.UNAUTHORIZED);
      await setGroupPermissions(
        t,
        t.admin,
        GroupId.MEMBER,
        memberPerms.filter((p) => p !== 'thread.insertImage').concat(`category${c}.thread.insertImage`),
      );
      expect((await upload(alice.token, jpeg(), { type: 'image', categoryId: String(c) })).Code).toBe(0);
      expect((await upload(alice.token, jpeg(), { type: 'image', categoryId: '1' })).Code).toBe(Code.UNAUTHORIZED);
      expect((await upload(alice.token, jpeg(), { type: 'image', categoryId: '999' })).Code).toBe(
        Code.CATEGORY_NOT_FOUND,
      );
      expect((await upload(alice.token, jpeg(), { type: 'image', categoryId: 'x' })).Data).toMatchObject({
        field: 'categoryId',
      });
    } finally {
      await setGroupPermissions(t, t.admin, GroupId.MEMBER, memberPerms);
    }
  });

  it('ties the images a post shows to that post', async () => {
    const a = (await upload(alice.token, jpeg())).Data;
    const th = await buildThread(t, alice.token, { text: `看图：\n\n![photo](${a.url}?level=30)` });
    expect(th.content.html).toContain(`<img src="${a.url}?level=30" alt="photo" loading="lazy">`);
    const row = await t.server.database.db
      .selectFrom('attachments')
      .select('postId')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(row.postId).toBe(th.postId);
  });
});
