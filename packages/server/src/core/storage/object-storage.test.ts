/* STORAGE_URL: files kept in an S3-compatible bucket (a local s3rver here), served as on disk; storage:migrate. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  Code,
  type AttachmentItem,
  type FileAttachmentItem,
  type ThreadDetail,
  type UserProfile,
} from '@luntan/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseStorageUrl } from '../../config.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { startTestBucket, type TestBucket } from '../../test/test-bucket.js';
import type { S3FileStore } from './index.js';
import { DiskFileStore, copyFiles } from './index.js';

const REPO = path.resolve(import.meta.dirname, '../../../../..');

describe('STORAGE_URL', () => {
  it('is the disk when absent, else a bucket with its URL-decoded key and secret, endpoint, region and style', () => {
    expect(parseStorageUrl(undefined)).toEqual({ kind: 'disk' });
    expect(parseStorageUrl('disk')).toEqual({ kind: 'disk' });
    expect(
      parseStorageUrl(
        's3://AK%2Bid:se%2Fcr%2Bet%3D@my-bucket/forum/?endpoint=https://cos.ap-shanghai.myqcloud.com&region=ap-shanghai',
      ),
    ).toEqual({
      kind: 's3',
      accessKeyId: 'AK+id',
      secretAccessKey: 'se/cr+et=',
      bucket: 'my-bucket',
      prefix: 'forum/',
      endpoint: 'https://cos.ap-shanghai.myqcloud.com',
      region: 'ap-shanghai',
      forcePathStyle: false,
    });
    expect(parseStorageUrl('s3://k:s@b1?forcePathStyle=true')).toMatchObject({
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: true,
      prefix: '',
    });
  });

  it('refuses a wrong one with a message naming what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['http://k:s@bucket', /unknown scheme http:/],
      ['s3://bucket', /access key and secret are missing/],
      ['s3://k@bucket', /access key and secret are missing/],
      ['s3://k:s@bucket?forcePathStyle=yes', /forcePathStyle must be true or false/],
      ['s3://k:s@bucket?endpoint=ftp://x', /endpoint must be an http/],
      ['s3://k:s@bucket?regoin=x', /unknown parameter regoin/],
      ['s3://k:s@b?x', /unknown parameter x|no bucket name/],
      ['s3://k:%E0%A4%A@bucket', /secret is not URL-encoded/],
    ];
    for (const [value, message] of cases) {
      expect(() => loadConfig({ STORAGE_URL: value })).toThrow(ConfigError);
      expect(() => loadConfig({ STORAGE_URL: value })).toThrow(message);
      expect(() => loadConfig({ STORAGE_URL: value })).toThrow(/^Invalid configuration: STORAGE_URL: /);
    }
    expect(() => loadConfig({ STORAGE_PUBLIC_URL: 'cdn.example.com' })).toThrow(/STORAGE_PUBLIC_URL/);
    expect(loadConfig({ STORAGE_PUBLIC_URL: 'https://cdn.example.com/' }).storagePublicUrl).toBe(
      'https://cdn.example.com',
    );
  });
});

function multipart(fields: Record<string, string>, file: { field: string; name: string; data: Buffer }) {
  const boundary = `----storage${Date.now()}`;
  const body = Buffer.concat([
    ...Object.entries(fields).map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');
const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('files in a bucket (STORAGE_URL=s3://...)', () => {
  let bucket: TestBucket;
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    bucket = await startTestBucket();
    t = await startTestServer({ env: { STORAGE_URL: bucket.storageUrl } });
    admin = await t.login(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await t?.close();
    await bucket?.close();
  });

  const onDisk = (publicPath: string) => fs.existsSync(path.join(t.storage.dataDir, publicPath));

  it('keeps an avatar in the bucket, serves it at /uploads/ with immutable caching, and removes the one replaced', async () => {
    const u = await buildUser(t);
    const upload = async (color: string) => {
      const form = multipart({}, { field: 'avatar', name: 'me.png', data: await png(400, 300, color) });
      const res = await t.call<UserProfile>('POST', '/api/v3/users/avatar', { token: u.token, ...form });
      expect(res.body.Code).toBe(0);
      return res.body.Data.avatarUrl;
    };
    const first = await upload('#cc3366');
    expect(first).toMatch(/^\/uploads\/avatars\/\d+-[0-9a-f]{16}\.webp$/);
    const stored = await bucket.store.read(first.slice(1));
    expect(stored).not.toBeNull();
    expect(onDisk(first)).toBe(false);

    const served = await t.app.inject({ method: 'GET', url: first });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(stored!)).toBe(true);
    expect((await sharp(served.rawPayload).metadata()).width).toBe(240);
    const again = await t.app.inject({
      method: 'GET',
      url: first,
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const head = await t.app.inject({ method: 'HEAD', url: first });
    expect([head.statusCode, head.headers['content-length'], head.rawPayload.length]).toEqual([
      200,
      String(stored!.length),
      0,
    ]);

    const second = await upload('#00aa00');
    expect(second).not.toBe(first);
    const avatars = await bucket.objects('uploads/avatars/');
    expect(avatars.has(second.slice(1))).toBe(true);
    expect(avatars.has(first.slice(1))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/uploads/avatars/none.webp' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/uploads/avatars/%2e%2e/x' })).statusCode).toBe(404);
  });

  it("keeps an image attachment's sizes in the bucket, serves them, and keeps the query form's renderings there", async () => {
    const u = await buildUser(t);
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const form = multipart({ type: 'image' }, { field: 'file', name: 'photo.jpg', data: photo });
    const res = await t.call<AttachmentItem>('POST', '/api/v3/attachments', { token: u.token, ...form });
    expect(res.body.Code).toBe(0);
    const a = res.body.Data;
    expect(a.sizes.map((s) => s.name)).toEqual(['original', 'large', 'medium', 'thumb']);
    for (const s of a.sizes) {
      expect(s.url).toMatch(/^\/uploads\/attachments\/\d{4}\/\d{2}\//);
      expect(onDisk(s.url)).toBe(false);
      const served = await t.app.inject({ method: 'GET', url: s.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.rawPayload.equals((await bucket.store.read(s.url.slice(1)))!)).toBe(true);
    }
    const narrow = await t.app.inject({ method: 'GET', url: `${a.url}?width=700`, headers: { accept: 'image/jpeg' } });
    expect(narrow.statusCode).toBe(200);
    expect((await sharp(narrow.rawPayload).metadata()).width).toBe(750);
    const dir = path.posix.dirname(a.sizes[0]!.url.slice(1));
    const cached = [...(await bucket.objects(`${dir}/cache/`)).keys()];
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(new RegExp(`^${dir}/cache/${a.fileKey}_w750_q\\d+\\.jpg$`));
    // Asked again, the rendering comes from the bucket: the same bytes.
    const again = await t.app.inject({ method: 'GET', url: `${a.url}?width=700`, headers: { accept: 'image/jpeg' } });
    expect(again.rawPayload.equals((await bucket.store.read(cached[0]!))!)).toBe(true);
  });

  it('keeps a thread file private in the bucket and streams it after the checks, with Range (206, 416)', async () => {
    const author = await buildUser(t);
    const form = multipart({ type: '0' }, { field: 'file', name: 'notes.pdf', data: PDF });
    const up = await t.call<FileAttachmentItem>('POST', '/api/v3/attachments', { token: author.token, ...form });
    expect(up.body.Code).toBe(0);
    const id = up.body.Data.id;
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      {
        categoryId: 1,
        title: '对象存储里的附件',
        content: { text: '见附件', indexes: { 108: { tomId: '108', body: { docIds: [id] } } } },
      },
      author.token,
    );
    expect(made.Code).toBe(0);
    const files = await bucket.objects('files/');
    expect([...files.values()]).toEqual([PDF.length]);
    const [key] = [...files.keys()];
    expect(key).toMatch(/^files\/\d{4}\/\d{2}\/[\w-]+\.pdf$/);
    expect(fs.existsSync(path.join(t.storage.dataDir, key!))).toBe(false);
    // Never public: /uploads/ does not reach the private half of the bucket.
    expect((await t.app.inject({ method: 'GET', url: `/uploads/../${key}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/uploads/%2e%2e/${key}` })).statusCode).toBe(404);

    const url = `/api/v3/attachment.download?threadId=${made.Data.threadId}&attachmentsId=${id}`;
    const whole = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${author.token}` } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(PDF.length));
    expect(whole.headers['content-disposition']).toMatch(/^attachment; filename="notes.pdf"/);
    expect(whole.rawPayload.equals(PDF)).toBe(true);

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=5-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 5-7/${PDF.length}`);
    expect(part.headers['content-length']).toBe('3');
    expect(part.rawPayload.toString()).toBe('1.4');
    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-6' } });
    expect([tail.statusCode, tail.rawPayload.toString()]).toEqual([206, '%%EOF\n']);
    const beyond = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${PDF.length}-` } });
    expect([beyond.statusCode, beyond.headers['content-range']]).toEqual([416, `bytes */${PDF.length}`]);

    // The object gone from the bucket: a clear not found, not a failure.
    await bucket.store.delete(key!);
    const gone = await t.app.inject({ method: 'GET', url });
    expect(gone.json().Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('keeps a site logo in the bucket and deletes it with the setting', async () => {
    const image = await png(64, 64, '#112233');
    const res = await t.post<{ url: string }>(
      '/api/settings/logo.v2',
      { type: 'logo', logo: `data:image/png;base64,${image.toString('base64')}` },
      admin,
    );
    expect(res.Code).toBe(0);
    const served = await t.app.inject({ method: 'GET', url: res.Data.url });
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/png']);
    expect(served.rawPayload.equals(image)).toBe(true);
    expect((await bucket.objects('uploads/site/')).has(res.Data.url.slice(1))).toBe(true);
    expect((await t.post('/api/settings/delete.logo.v2', { type: 'logo' }, admin)).Code).toBe(0);
    expect((await bucket.objects('uploads/site/')).has(res.Data.url.slice(1))).toBe(false);
  });
});

describe('STORAGE_PUBLIC_URL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { STORAGE_PUBLIC_URL: 'https://cdn.example.com/forum/' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('redirects /uploads/ addresses to the CDN', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/uploads/avatars/1-abc.webp' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://cdn.example.com/forum/uploads/avatars/1-abc.webp');
  });
});

describe('copying files between the disk and a bucket (storage:migrate)', () => {
  let bucket: TestBucket;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-migrate-'));
    dirs.push(dir);
    return dir;
  };
  const FILES: Record<string, string> = {
    'uploads/avatars/1-aaaa.webp': 'avatar',
    'uploads/attachments/2026/11/k.jpg': 'an image',
    'uploads/attachments/2026/11/cache/k_w720_q80.jpg': 'a rendering',
    'uploads/site/logo-bbbb.png': 'logo',
    'files/2026/11/f.pdf': 'a private file',
  };

  beforeAll(async () => {
    bucket = await startTestBucket('luntan-migrate');
  });
  afterAll(async () => {
    await bucket?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every file to the bucket and back, skipping what is already there with the same size', async () => {
    const disk = new DiskFileStore(tempDir());
    for (const [key, text] of Object.entries(FILES)) await disk.put(key, Buffer.from(text));
    // Not the forum's files: never copied.
    fs.writeFileSync(path.join(disk.root, 'luntan.sqlite'), 'db');

    const first = await copyFiles(disk, bucket.store);
    expect(first).toMatchObject({ total: 5, copied: 5, skipped: 0, failed: [] });
    expect(Object.fromEntries(await bucket.objects())).toEqual(
      Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, v.length])),
    );
    expect((await bucket.store.stat('files/2026/11/f.pdf'))?.contentType).toBe('application/octet-stream');
    expect((await bucket.store.stat('uploads/site/logo-bbbb.png'))?.contentType).toBe('image/png');

    // Resumed: one object missing, one of another size (cut short); the rest is skipped.
    await bucket.store.delete('uploads/site/logo-bbbb.png');
    await bucket.store.put('files/2026/11/f.pdf', Buffer.from('a priv'));
    const seen: string[] = [];
    const again = await copyFiles(disk, bucket.store, {
      progress: { start: () => {}, advance: (f) => f.copied && seen.push(f.key), stop: () => {} },
    });
    expect(again).toMatchObject({ total: 5, copied: 2, skipped: 3, failed: [] });
    expect(seen.sort()).toEqual(['files/2026/11/f.pdf', 'uploads/site/logo-bbbb.png']);
    expect((await bucket.store.read('files/2026/11/f.pdf'))!.toString()).toBe('a private file');

    const back = new DiskFileStore(tempDir());
    expect(await copyFiles(bucket.store, back)).toMatchObject({ total: 5, copied: 5, failed: [] });
    for (const [key, text] of Object.entries(FILES)) {
      expect(fs.readFileSync(path.join(back.root, ...key.split('/')), 'utf8')).toBe(text);
    }
    expect(await copyFiles(bucket.store, back)).toMatchObject({ copied: 0, skipped: 5 });
  });

  it('runs as npm run storage:migrate -- --to s3|disk, with a summary and a non-zero exit on failure', async () => {
    const run = async (args: string[], env: Record<string, string>) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', '--conditions=source', 'packages/server/src/scripts/storage-migrate.ts', ...args],
          { cwd: REPO, env: { ...process.env, ...env, NODE_NO_WARNINGS: '1' } },
        );
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };
    const dataDir = tempDir();
    const disk = new DiskFileStore(dataDir);
    for (const [key, text] of Object.entries(FILES)) await disk.put(key, Buffer.from(text));
    // Into a prefix of the bucket, so this run starts from an empty place.
    const storageUrl = bucket.storageUrl.replace('@luntan-migrate?', '@luntan-migrate/cli?');
    const env = { DATA_DIR: dataDir, STORAGE_URL: storageUrl };

    const up = await run(['--to', 's3'], env);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain('5 files: 5 copied');
    expect([...(await bucket.objects('cli/')).keys()].sort()).toEqual(
      Object.keys(FILES)
        .map((k) => `cli/${k}`)
        .sort(),
    );
    const resumed = await run(['--to', 's3'], env);
    expect(resumed.stdout).toContain('5 files: 0 copied (0.0 MiB), 5 already there, 0 failed.');

    const otherDir = tempDir();
    const down = await run(['--to', 'disk'], { DATA_DIR: otherDir, STORAGE_URL: storageUrl });
    expect(down.code, down.stderr).toBe(0);
    expect(fs.readFileSync(path.join(otherDir, 'files', '2026', '11', 'f.pdf'), 'utf8')).toBe('a private file');

    const noBucket = await run(['--to', 's3'], {
      DATA_DIR: dataDir,
      STORAGE_URL: storageUrl.replace('@luntan-migrate', '@nowhere'),
    });
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toMatch(/storage:migrate failed: .*(NoSuchBucket|bucket)/i);
    const noTarget = await run([], env);
    expect([noTarget.code, noTarget.stderr]).toEqual([2, expect.stringContaining('--to must be s3 or disk')]);
    const noUrl = await run(['--to', 's3'], { DATA_DIR: dataDir, STORAGE_URL: '' });
    expect([noUrl.code, noUrl.stderr]).toEqual([2, expect.stringContaining('STORAGE_URL must name the bucket')]);
  }, 60_000);
});

// The store's own reads, apart from the forum: ranges and missing objects answer alike on both backends.
describe.each(['disk', 's3'] as const)('the %s store', (kind) => {
  let bucket: TestBucket | undefined;
  let store: DiskFileStore | S3FileStore;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-store-'));
    if (kind === 's3') {
      bucket = await startTestBucket('luntan-store');
      store = bucket.store;
    } else store = new DiskFileStore(dir);
  });
  afterAll(async () => {
    await bucket?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts, stats, reads a range, lists, deletes; a missing key answers null; a bad key is refused', async () => {
    await store.put('uploads/a/b.txt', Buffer.from('0123456789'), 'text/plain');
    expect(await store.stat('uploads/a/b.txt')).toMatchObject({ size: 10 });
    const part = await store.get('uploads/a/b.txt', { start: 2, end: 4 });
    const chunks: Buffer[] = [];
    for await (const c of part!.stream) chunks.push(c as Buffer);
    expect([Buffer.concat(chunks).toString(), part!.info.size]).toEqual(['234', 10]);
    const listed = [];
    for await (const o of store.list('uploads/')) listed.push(o);
    expect(listed).toEqual([{ key: 'uploads/a/b.txt', size: 10 }]);
    expect(await store.read('uploads/none')).toBeNull();
    expect(await store.get('uploads/none')).toBeNull();
    expect(await store.stat('uploads/none')).toBeNull();
    await store.delete('uploads/a/b.txt');
    await store.delete('uploads/a/b.txt');
    expect(await store.stat('uploads/a/b.txt')).toBeNull();
    await expect(store.put('uploads/../x', Buffer.from('x'))).rejects.toThrow(/Not a storage key/);
    await expect(store.read('/etc/passwd')).rejects.toThrow(/Not a storage key/);
    const signed = await store.signedUrl('uploads/a/b.txt', { expiresIn: 60 });
    if (kind === 'disk') expect(signed).toBeNull();
    else expect(signed).toMatch(/X-Amz-Signature=/);
  });
});
