import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCompression } from '../../core/compression.js';
import { ONCE_BROTLI_PARAMS, ONCE_GZIP_LEVEL, PAGE_BROTLI_PARAMS, PAGE_GZIP_LEVEL } from '../../core/page-cache.js';
import { registerSecurityHeaders } from '../../core/security-headers.js';
import { useTestServer } from '../../test/fixture.js';
import { streamPage, type RenderedPage } from './stream-page.js';

function decode(raw: Buffer, encoding: string | string[] | number | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(raw).toString('utf8');
  return raw.toString('utf8');
}

/**
 * Pages sent as they render (stream-page.ts, web.routes.ts): the head first, the rest once rendered, and the page kept
 * from what was sent. Needs the web build (`npm run build`).
 */
describe('pages streamed on a first visit', () => {
  const t = useTestServer({ env: { GUEST_CACHE_MS: '60000' } });

  const page = async (url: string, encoding?: string, method: 'GET' | 'HEAD' = 'GET') => {
    const res = await t.app.inject({
      method,
      url,
      headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
    });
    return {
      status: res.statusCode,
      headers: res.headers,
      raw: res.rawPayload,
      html: decode(res.rawPayload, res.headers['content-encoding']),
    };
  };

  it('answers a first visit with the very bytes then kept and sent to the next visitor, in each encoding', async () => {
    const thread = await t.buildThread(undefined, { title: 'streamed long thread' });
    for (let i = 0; i < 15; i += 1) await t.buildReply(t.admin, thread.threadId, { text: `streamed reply ${i}` });
    const url = `/thread/${thread.threadId}`;
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      // A write: the thread's kept pages are stale, the next visit renders.
      await t.buildReply(t.admin, thread.threadId, { text: `last reply before ${encoding ?? 'plain'}` });
      const first = await page(url, accept);
      const next = await page(url, accept);
      expect(first.status).toBe(200);
      expect(first.headers['x-guest-cache']).toBe('miss');
      // Kept by the time the first answer has ended.
      expect(next.headers['x-guest-cache']).toBe('hit');
      expect(first.headers['content-encoding']).toBe(encoding);
      // Streamed: its length was not known when its head left.
      expect(first.headers['content-length']).toBeUndefined();
      // Kept as sent: the streamed compression is the kept one (compressed once), not a second one.
      expect(first.raw.equals(next.raw)).toBe(true);
      expect(first.html).toContain('streamed long thread');
      expect(first.html).toContain('streamed reply 0');
      expect(first.html).toContain(`last reply before ${encoding ?? 'plain'}`);
      expect(first.html).toMatch(/^<!doctype html><html [^>]*><head>.*<\/head><body><div id="root">/s);
      expect(first.html).toMatch(/<script type="module" src="[^"]+"><\/script><\/body><\/html>$/);
      for (const answer of [first, next]) {
        expect(String(answer.headers.vary)).toMatch(/accept-encoding/i);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
      }
      expect(first.headers['content-security-policy']).toBe(next.headers['content-security-policy']);
      expect(String(first.headers['content-security-policy'])).toMatch(/script-src 'self' 'sha256-/);
      // The kept page's other encodings hold the same page.
      const other = await page(url, encoding === 'br' ? 'gzip' : 'br');
      expect(other.headers['x-guest-cache']).toBe('hit');
      expect(other.html).toBe(first.html);
    }
  });

  it('answers a HEAD request with the headers and no body, kept page or not', async () => {
    const thread = await t.buildThread(undefined, { title: 'head request thread' });
    const url = `/thread/${thread.threadId}`;
    const head = await page(url, 'br', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    expect(head.raw.length).toBe(0);
    await page(url, 'br');
    const kept = await page(url, 'br', 'HEAD');
    expect(kept.status).toBe(200);
    expect(kept.raw.length).toBe(0);
  });

  it('streams the not-found page with its status, and keeps it not', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      const missing = await page('/no/such/page', accept);
      expect(missing.status).toBe(404);
      expect(missing.headers['x-guest-cache']).toBeUndefined();
      expect(missing.headers['content-length']).toBeUndefined();
      expect(missing.html).toContain('资源不存在');
      expect(missing.html).toMatch(/<\/body><\/html>$/);
    }
  });

  it('redirects as before: no body, its cookie, nothing kept', async () => {
    const res = await t.app.inject({ url: '/my', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(300);
    expect(res.statusCode).toBeLessThan(400);
    expect(res.headers.location).toMatch(/^\/user\/login/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(0);
  });
});

/** streamPage on a real socket, behind the server's own compression and security headers. */
describe('streamPage', () => {
  let app: FastifyInstance;
  let base = '';
  const logged: string[] = [];
  /** What `keep` was given. */
  const kept: { plain: Buffer; encoded: Buffer }[] = [];
  /** What the rest's render saw of the answer: whether its head had left already. */
  const seen: { headersSent: boolean; bytesWritten: number }[] = [];
  const HEAD = `<!doctype html><html><head><title>streamed</title>${'<meta name="x" content="y">'.repeat(50)}</head><body>`;
  // In parts, as the web app gives them (one of them two bytes a character), sent as their concatenation.
  const REST_PARTS = [`<div id="root">${'<p>a long page</p>'.repeat(2000)}</div>`, '<p>长页面</p>', '</body></html>'];
  const REST = REST_PARTS.join('');

  beforeAll(async () => {
    app = Fastify({
      logger: {
        level: 'error',
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            logged.push(chunk.toString());
            done();
          },
        }),
      },
    });
    await registerSecurityHeaders(app);
    await registerCompression(app);
    app.get('/page', async (request, reply) => {
      const failing = request.query && (request.query as { fail?: string }).fail === '1';
      const page: RenderedPage = {
        status: 200,
        head: HEAD,
        rest: () => {
          seen.push({ headersSent: reply.raw.headersSent, bytesWritten: reply.raw.socket?.bytesWritten ?? 0 });
          if (failing) throw new Error('a component failed');
          return REST_PARTS;
        },
        headers: { 'cache-control': 'no-store' },
      };
      const keep = (request.query as { keep?: string }).keep === '1';
      await streamPage(
        request,
        reply,
        page,
        keep
          ? async (streamed) => {
              kept.push({ plain: streamed.plain, encoded: await streamed.encoded });
            }
          : undefined,
      );
      return reply;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (path: string, accept?: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers: accept ? { 'accept-encoding': accept } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        })
        .on('error', reject);
    });

  it('sends the head before the rest is rendered, compressed once in the encoding asked for', async () => {
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      seen.length = 0;
      const res = await get('/page', accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'self'/);
      // Decoded once it is the page: compressed a second time it would not be.
      expect(decode(res.raw, encoding)).toBe(HEAD + REST);
      // The status, headers and head were on the socket when the rest began to render.
      expect(seen).toHaveLength(1);
      expect(seen[0]!.headersSent).toBe(true);
      expect(seen[0]!.bytesWritten).toBeGreaterThan(encoding ? 200 : HEAD.length);
    }
  });

  /** The page through one compressor as streamPage uses it: the head flushed, then the rest with the end. */
  const compressed = async (encoder: zlib.BrotliCompress | zlib.Gzip): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise<void>((resolve) => encoder.write(HEAD, () => resolve()));
    encoder.end(Buffer.from(REST));
    await new Promise((resolve) => encoder.on('end', resolve));
    return Buffer.concat(chunks);
  };

  it('compresses a page sent once as other answers are, and a page to be kept as kept pages are', async () => {
    const brotli = (params: Record<number, number>) =>
      compressed(zlib.createBrotliCompress({ params, flush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    const gzip = (level: number) => compressed(zlib.createGzip({ level, flush: zlib.constants.Z_SYNC_FLUSH }));
    const once = { br: await brotli(ONCE_BROTLI_PARAMS), gzip: await gzip(ONCE_GZIP_LEVEL) };
    const many = { br: await brotli(PAGE_BROTLI_PARAMS), gzip: await gzip(PAGE_GZIP_LEVEL) };
    // The qualities differ: the two ways give different bytes for this page.
    expect(once.br.equals(many.br)).toBe(false);
    expect(once.gzip.equals(many.gzip)).toBe(false);
    for (const encoding of ['br', 'gzip'] as const) {
      expect((await get('/page', encoding)).raw.equals(once[encoding])).toBe(true);
      kept.length = 0;
      const first = await get('/page?keep=1', encoding);
      expect(first.raw.equals(many[encoding])).toBe(true);
      // What is kept: the bytes sent, and the page uncompressed.
      expect(kept).toHaveLength(1);
      expect(kept[0]!.encoded.equals(first.raw)).toBe(true);
      expect(kept[0]!.plain.toString('utf8')).toBe(HEAD + REST);
    }
  });

  it('ends the answer after its head when the rest fails to render, and logs it', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      logged.length = 0;
      const res = await get('/page?fail=1', accept);
      expect(res.status).toBe(200);
      expect(decode(res.raw, res.headers['content-encoding'])).toBe(HEAD);
      expect(logged.join('')).toContain('a component failed');
    }
    // The server goes on serving.
    expect(decode((await get('/page', 'br')).raw, 'br')).toBe(HEAD + REST);
  });
});
