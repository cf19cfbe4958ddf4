import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ONCE_BROTLI_PARAMS,
  ONCE_GZIP_LEVEL,
  PAGE_BROTLI_PARAMS,
  PAGE_GZIP_LEVEL,
  pageEncoding,
} from '../../core/page-cache.js';
import type { PageScripts } from '../../core/security-headers.js';

/**
 * A page as rendered: `head` (the document up to the opening of its body) once its data is read, and `rest()`, which
 * renders the app and the remaining document in parts (may throw); `head + rest().join('')` is the whole page. The
 * parts are encoded one by one and never joined into one string: a page's text is 150 kB and more, which V8 would
 * allocate apart, in its large-object space, for nearly a millisecond a page (docs/performance.md, twelfth part).
 */
export interface RenderedPage {
  status: number;
  head: string;
  rest: () => string[];
  headers?: Record<string, string>;
  /** What the page runs inline and the statistics snippet it carries: its Content-Security-Policy allows these. */
  scripts?: PageScripts;
}

/** How many turns of the event loop the head may wait for the answer's stream to be taken up (streamPage). */
const HEAD_WAIT_TURNS = 10;

/** A page as it is streamed: the whole document, and its bytes in the encoding it is sent in once all are out. */
interface StreamedPage {
  /** The document's bytes, uncompressed. */
  plain: Buffer;
  encoding: 'br' | 'gzip' | null;
  encoded: Promise<Buffer>;
}

/**
 * Sends a page as it renders: its status, headers and head at once (the browser starts fetching the styles, scripts
 * and fonts they name), then the app and the rest of the document once `rest()` has rendered them. Compressed here in
 * the encoding a kept page is sent in (core/page-cache.ts), the head flushed out of the compressor before the app
 * renders: at the kept pages' quality when the page is to be kept, at every other answer's when it is sent once;
 * @fastify/compress leaves an answer with a content-encoding alone. The inline-script streaming of React's
 * Suspense boundaries is not used: the pages' policy has no nonce and allows no inline script but the import map.
 *
 * `keep` runs once the page is rendered, and the answer ends once it is done (the page is kept by the time its first
 * visitor has it, as a page rendered whole was: the next visitor, in this process or another, finds it kept). A failure
 * after the head has left is logged and the answer ends there: a page cut short, no error page, no hang.
 */
export async function streamPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: RenderedPage,
  keep?: (streamed: StreamedPage) => Promise<unknown>,
): Promise<void> {
  const encoding = pageEncoding(request);
  reply.code(page.status);
  for (const [name, value] of Object.entries(page.headers ?? {})) reply.header(name, value);
  reply.header('vary', 'accept-encoding').type('text/html; charset=utf-8');
  if (encoding) reply.header('content-encoding', encoding);
  const body = new PassThrough();
  // Every write flushed (there are two: the head, then the rest with the end, which finishes the stream): the head
  // leaves the compressor in one pass of the thread pool instead of a write and then a flush (docs/performance.md,
  // "sixth part").
  // A page to be kept is compressed as kept pages are (it is sent again as it is); a page sent once, as other answers.
  const encoder =
    encoding === 'br'
      ? zlib.createBrotliCompress({
          params: keep ? PAGE_BROTLI_PARAMS : ONCE_BROTLI_PARAMS,
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        })
      : encoding === 'gzip'
        ? zlib.createGzip({ level: keep ? PAGE_GZIP_LEVEL : ONCE_GZIP_LEVEL, flush: zlib.constants.Z_SYNC_FLUSH })
        : null;
  const encoded: Buffer[] = [];
  encoder?.on('data', (chunk: Buffer) => {
    encoded.push(chunk);
    body.write(chunk);
  });
  encoder?.on('error', (error) => body.destroy(error));
  void reply.send(body);
  try {
    if (encoder) await new Promise<void>((resolve) => encoder.write(page.head, () => resolve()));
    else body.write(page.head);
    // The app renders synchronously: the head must be on the socket before (once Fastify has piped the stream).
    for (let turn = 0; turn < HEAD_WAIT_TURNS && !(body.readableFlowing && body.readableLength === 0); turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const rest = Buffer.concat(page.rest().map((part) => Buffer.from(part, 'utf8')));
    let sent: Promise<Buffer>;
    if (encoder) {
      encoder.end(rest);
      // Complete even when the client has gone meanwhile: the page may still be kept.
      sent = finished(encoder).then(() => Buffer.concat(encoded));
    } else {
      body.write(rest);
      sent = Promise.resolve(Buffer.alloc(0));
    }
    // The page is kept (its other encodings made) while the last of it is compressed and sent.
    await Promise.all([
      sent,
      keep?.({ plain: Buffer.concat([Buffer.from(page.head, 'utf8'), rest]), encoding, encoded: sent }),
    ]);
  } catch (error) {
    request.log.error({ err: error, url: request.url }, 'the page failed after its head was sent');
    if (encoder && !encoder.writableEnded) {
      encoder.end();
      await finished(encoder).catch(() => undefined);
    }
  } finally {
    body.end();
  }
}
