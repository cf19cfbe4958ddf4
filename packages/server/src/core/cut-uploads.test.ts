import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Code } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

/**
 * Uploads a client abandons half-way, over a real socket against a listening server. The hooks before an upload's
 * handler wait on the database (on PostgreSQL for real), so the client's hang-up often arrives before the handler
 * starts reading: it must still end in -4001, never in a request that waits forever.
 */
let port: number;
let member: string;
const log: { level: number; msg: string; reqId?: string }[] = [];

// The server's log, to check what it wrote about each refusal.
const stream = new PassThrough();
stream.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n').filter(Boolean)) log.push(JSON.parse(line) as never);
});
const t = useTestServer({ logStream: stream });

beforeAll(async () => {
  member = (await buildUser(t)).token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

const UPLOADS = [
  { url: '/api/v3/attachments', as: 'member' },
  { url: '/api/v3/users/avatar', as: 'member' },
  { url: '/api/settings/logo.v2', as: 'admin' },
  { url: '/api/backAdmin/plugin/upload', as: 'admin' },
] as const;

const BOUNDARY = 'cutUploadBoundary';
/** The start of a form: a field, then a file part whose bytes stop after a few. */
const PARTIAL =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nimage\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n` +
  '\x89PNG\r\n\x1a\n0123456789';

interface Answer {
  status: number;
  body: { Code: number; Message: string; Data: unknown; RequestId: string };
}

/**
 * Sends the partial form and then ends the request: `length` declares a Content-Length 5,000 bytes longer and
 * half-closes the connection; `chunked` ends the chunked body properly (the form inside it is what is cut off);
 * `hang-up` declares the length and drops the connection, so no answer can come back.
 */
function cutUpload(
  url: string,
  token: string,
  how: 'length' | 'chunked' | 'hang-up',
  locale = 'zh',
): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: url,
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        authorization: `Bearer ${token}`,
        cookie: `locale=${locale}`,
        ...(how === 'chunked' ? {} : { 'content-length': String(Buffer.byteLength(PARTIAL) + 5000) }),
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] });
        } catch {
          reject(new Error(`not an envelope (HTTP ${response.statusCode}): ${text}`));
        }
      });
    });
    request.on('error', (error) => (how === 'hang-up' ? resolve(null) : reject(error)));
    request.write(PARTIAL, () => {
      if (how === 'chunked') request.end();
      else if (how === 'length') request.socket?.end();
      else {
        request.destroy();
        resolve(null);
      }
    });
  });
}

/** Waits (bounded) until the server's log holds `count` refusals of a cut-off form: each handler has finished. */
async function handlersFinished(count: number): Promise<number> {
  const refusals = () => log.filter((l) => l.msg === 'multipart body refused').length;
  for (let waited = 0; refusals() < count && waited < 15_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return refusals();
}

describe('a multipart upload cut off by the client', () => {
  it.each(UPLOADS)('$url: a Content-Length promising more, then the client ends: -4001 in the envelope', async (u) => {
    const token = u.as === 'admin' ? t.admin : member;
    const before = await handlersFinished(0);
    for (const locale of ['zh', 'en']) {
      const answer = await cutUpload(u.url, token, 'length', locale);
      expect(answer!.status).toBe(400);
      expect(answer!.body).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'body' } });
      expect(answer!.body.RequestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer!.body.Message).toBe(
        locale === 'zh'
          ? '提交的内容不完整：连接在请求体传完之前就结束了，请重新提交'
          : 'What was sent was cut short: the connection ended before the whole body arrived. Please send it again',
      );
    }
    // And the handler that was reading the form did not wait for the rest forever.
    expect(await handlersFinished(before + 2)).toBe(before + 2);
  });

  it.each(UPLOADS)('$url: a chunked body whose form stops half-way: -4001 from the form reader', async (u) => {
    const answer = await cutUpload(u.url, u.as === 'admin' ? t.admin : member, 'chunked');
    expect(answer!.status).toBe(200);
    expect(answer!.body.Code).toBe(Code.INVALID_PARAMETER);
  });

  it.each(UPLOADS)('$url: a client that hangs up leaves no handler waiting', async (u) => {
    const before = await handlersFinished(0);
    expect(await cutUpload(u.url, u.as === 'admin' ? t.admin : member, 'hang-up')).toBeNull();
    expect(await handlersFinished(before + 1)).toBe(before + 1);
    // The server goes on answering.
    expect((await t.get('/api/siteinfo.v2')).Code).toBe(0);
  });
});
