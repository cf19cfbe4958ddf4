import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Every success answer starts so; the tail from `,"RequestId":` on changes with every request. */
const SUCCESS_PREFIX = '{"Code":0,';
const TAIL = ',"RequestId":';

/** What an answer depends on besides its address: the viewer (cookie or bearer token) and the encoding. */
const VARY = ['accept-encoding', 'cookie', 'authorization'];

/** The reply's Vary with the names above added (lower case: the compression hook looks for `accept-encoding`). */
function varyWith(reply: FastifyReply): string {
  const current = reply.getHeader('vary');
  const names = new Set(
    String(Array.isArray(current) ? current.join(',') : (current ?? ''))
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const name of VARY) names.add(name);
  return [...names].join(', ');
}

/** A weak validator of an answer's stable part (everything before its RequestId), or null when it has none. */
export function answerEtag(payload: string): string | null {
  if (!payload.startsWith(SUCCESS_PREFIX)) return null;
  const tail = payload.lastIndexOf(TAIL);
  if (tail < 0) return null;
  const digest = createHash('sha1').update(payload.slice(0, tail)).digest('base64url');
  // Weak: the br, gzip and plain bytes of one answer are the same answer, and the envelope's tail differs anyway.
  return `W/"${digest}"`;
}

/** Whether an If-None-Match header names this validator (weak comparison, RFC 9110 §13.1.2), or is `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/**
 * Conditional reads of the API: a successful GET answer (HTTP 200, Code 0, JSON) gets a weak ETag of its stable part
 * and `Cache-Control: private, no-cache`, so the browser keeps it but asks each time, and an unchanged answer costs
 * a 304 with no body instead of the JSON. Never for shared caches: answers depend on who asks (hence the Vary).
 * The answer is still computed in full; what is saved is the transfer and the client's parsing. Answers whose route
 * set its own Cache-Control (the captcha's `no-store`), errors, streams and non-JSON answers are left alone.
 *
 * An onSend hook of the /api instance: it runs before the route-level compression hook, so it reads the plain text.
 */
export function registerApiEtag(api: FastifyInstance): void {
  api.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
    if (reply.statusCode !== 200 || typeof payload !== 'string' || reply.hasHeader('cache-control')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const etag = answerEtag(payload);
    if (!etag) return payload;
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', varyWith(reply));
    if (!etagMatches(request.headers['if-none-match'], etag)) return payload;
    reply.code(304).removeHeader('content-type').removeHeader('content-length');
    return null;
  });
}
