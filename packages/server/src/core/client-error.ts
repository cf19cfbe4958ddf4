import http from 'node:http';
import type { Socket } from 'node:net';
import { Code } from '@luntan/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envelope } from './envelope.js';
import { localize, requestLocale } from './i18n.js';
import { msg } from '../i18n/index.js';

/*
 * A client that ends its side of the connection before the body it announced has arrived (a Content-Length promising
 * more, a chunked body cut off) makes Node's HTTP parser fail: Node reports it as a "client error" on the socket, not
 * to the route, and Fastify's default answers a bare `400 Client Error` and closes. For an /api call whose body was
 * still being read, the answer is the envelope instead: -4001, said in the caller's language, with the request's id.
 */

const inFlight = new WeakMap<Socket, { request: FastifyRequest; reply: FastifyReply }>();

/** onRequest hook of /api: remembers the request each connection is serving, for the client-error answer below. */
export async function trackApiRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  inFlight.set(request.raw.socket, { request, reply });
}

const cutShort = msg('core.sentCutShortConnection');

/** Fastify's clientErrorHandler (`this` is the app). */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const current = inFlight.get(socket);
  // A finished request stays in the map until the connection serves another one: only one still reading counts.
  if (current && !current.request.raw.complete && !current.reply.raw.headersSent) {
    const { request } = current;
    request.log.info({ err: error }, 'the request body was cut short');
    const text = localize(cutShort, requestLocale(request));
    const body = JSON.stringify(envelope(request, Code.INVALID_PARAMETER, text, { field: 'body' }));
    return void socket.end(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // Otherwise what Fastify's default does: a timeout, headers too large, or a request that never parsed.
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const label = http.STATUS_CODES[status]!;
  const body = JSON.stringify({ error: label, message: status === 400 ? 'Client Error' : label, statusCode: status });
  this.log.trace({ err: error }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
