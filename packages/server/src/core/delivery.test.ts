import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildThread } from '../test/factories.js';
import { buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';
import { COMPRESS_THRESHOLD_BYTES } from './compression.js';

/**
 * Compressed, cacheable delivery (docs/performance.md): dynamic answers compressed per request, the built client
 * files served pre-compressed, hashed files immutable, API reads answered 304 when unchanged. Pages and assets need
 * the web build (`npm run build`).
 */
const clientDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@luntan/web/package.json')),
  'dist',
  'client',
);

const t = useTestServer({ env: { GUEST_CACHE_MS: '60000' } });

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function decoded(res: LightMyRequestResponse): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload);
  if (encoding === 'gzip') return gunzipSync(res.rawPayload);
  expect(encoding).toBeUndefined();
  return res.rawPayload;
}

function varyOf(res: LightMyRequestResponse): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

/** An API answer without its per-request tail (RequestId, RequestTime). */
const stablePart = (body: string) => body.slice(0, body.lastIndexOf(',"RequestId":'));

describe('compression of dynamic answers', () => {
  it('sends a server-rendered page as br or gzip, the same bytes once decoded, and plain without Accept-Encoding', async () => {
    expect((await get('/')).statusCode).toBe(200); // fills the guest cache
    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    // No per-answer nonce: every answer of the page is the same bytes, under the same policy.
    const expected = plain.body;
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await get('/', { 'accept-encoding': encoding });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(varyOf(res)).toContain('accept-encoding');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(decoded(res).toString('utf8')).toBe(expected);
      expect(res.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    }
    // Brotli is preferred when the client takes both, as browsers say it.
    expect((await get('/', { 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding']).toBe('br');
  });

  it('sends a JSON answer as br or gzip, the same answer once decoded', async () => {
    const member = await buildUser(t);
    for (let i = 0; i < 6; i += 1) await buildThread(t, member.token, { title: `delivery thread ${i}` });
    const url = '/api/v3/thread.list?perPage=50';
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await get(url, { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(varyOf(res)).toContain('accept-encoding');
      expect(stablePart(decoded(res).toString('utf8'))).toBe(stablePart(plain.body));
    }
  });

  it('leaves small answers alone', async () => {
    const res = await get('/api/v3/thread.list?perPage=1&filter[categoryids][0]=999999', {
      'accept-encoding': 'br, gzip',
    });
    if (res.rawPayload.length < COMPRESS_THRESHOLD_BYTES) expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('built client files', () => {
  const manifest = () =>
    JSON.parse(fs.readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string; isEntry?: boolean }
    >;

  it('are served pre-compressed (br, gzip), immutable under /assets/, the same bytes once decoded', async () => {
    const chunks = Object.values(manifest());
    const entry = chunks.find((chunk) => chunk.isEntry)!.file;
    const stylesheet = chunks.find((chunk) => chunk.file.endsWith('.css'))!.file;
    for (const file of [entry, stylesheet]) {
      const onDisk = fs.readFileSync(path.join(clientDir, file));
      expect(fs.existsSync(path.join(clientDir, `${file}.br`)), `${file}.br`).toBe(true);
      expect(fs.existsSync(path.join(clientDir, `${file}.gz`)), `${file}.gz`).toBe(true);
      const plain = await get(`/${file}`);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(onDisk)).toBe(true);
      for (const encoding of ['br', 'gzip'] as const) {
        const res = await get(`/${file}`, { 'accept-encoding': encoding });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-type']).toMatch(file.endsWith('.css') ? /^text\/css/ : /javascript/);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(varyOf(res)).toContain('accept-encoding');
        // The build's file as it is: the server did not compress it again.
        const stored = fs.readFileSync(path.join(clientDir, `${file}.${encoding === 'br' ? 'br' : 'gz'}`));
        expect(res.rawPayload.equals(stored)).toBe(true);
        expect(decoded(res).equals(onDisk)).toBe(true);
      }
    }
  });

  it('keep files whose names carry no hash (/static/) revalidated daily, never immutable', async () => {
    const file = fs.readdirSync(path.join(clientDir, 'static')).find((name) => name.endsWith('.svg'))!;
    for (const headers of [{}, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
      const res = await get(`/static/${file}`, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(decoded(res).equals(fs.readFileSync(path.join(clientDir, 'static', file)))).toBe(true);
    }
  });
});

describe('conditional API reads', () => {
  const url = '/api/v3/thread.list?perPage=50&page=1';

  it('answer 304 without a body when the ETag still matches, 200 with a new one once the answer changed', async () => {
    const member = await buildUser(t);
    await buildThread(t, member.token, { title: 'etag thread one' });
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(varyOf(first)).toEqual(expect.arrayContaining(['accept-encoding', 'cookie', 'authorization']));

    // The same answer (a new RequestId and RequestTime do not count): 304, with the validator, without a body.
    for (const headers of [{}, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
      const again = await get(url, { 'if-none-match': etag, ...headers });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['content-encoding']).toBeUndefined();
    }
    // Another validator, or none: the whole answer.
    expect((await get(url, { 'if-none-match': 'W/"something-else"' })).statusCode).toBe(200);

    await buildThread(t, member.token, { title: 'etag thread two' });
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('etag thread two');
  });

  it('are not given to failures and writes', async () => {
    const failed = await get('/api/v3/thread.detail?threadId=99999999');
    expect(failed.headers.etag).toBeUndefined();
    const write = await t.app.inject({ method: 'POST', url: '/api/v3/users/logout', payload: {} });
    expect(write.headers.etag).toBeUndefined();
  });
});
