import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * The brotli quality of an answer made for one request: nearly gzip's speed for a better ratio, where the zlib
 * default of 11 would cost tens of milliseconds per page. Pages sent once are compressed the same way
 * (core/page-cache.ts, ONCE_BROTLI_PARAMS); a page kept for many visitors is worth more (PAGE_BROTLI_PARAMS).
 */
export const ANSWER_BROTLI_QUALITY = 4;

/** Answers smaller than this go as they are: compressing them saves less than the work and the headers cost. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Text that gains from compression: pages, JSON, scripts, styles, SVG, plain text and XML (the sitemap). Not the
 * live event stream (compression would hold events back in the compressor's buffer), not images, archives or
 * `application/octet-stream` downloads, which are compressed already or streamed as they are.
 */
export function isCompressibleType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/javascript' ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/manifest+json'
  );
}

/**
 * Compression of every answer made per request (@fastify/compress): brotli or gzip, whichever the client's
 * Accept-Encoding prefers (brotli on a tie). Brotli at quality 4: nearly gzip's speed for a better ratio, where the
 * zlib default of 11 would cost tens of milliseconds per page. The built client files are compressed once at build
 * time at full quality and served as they are (`preCompressed` in modules/web/web.routes.ts); this hook sees their
 * Content-Encoding and leaves them alone.
 *
 * Must be registered before the routes: it adds its hooks to each route as it is declared. Those hooks run after
 * every instance's own onSend hooks (route-level hooks come last), so the guest cache and the ETag see the
 * uncompressed text. Request bodies are never decompressed: the payment callbacks verify signatures over the exact
 * bytes received, and nothing else is sent compressed.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    // A 256 KB window instead of 4 MB: the same size for pages and answers of this size (measured: 12.5 KB for a
    // 94 KB home page either way), a sixteenth of the memory per answer being compressed.
    brotliOptions: {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: ANSWER_BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
    },
    // Answers up to 256 KB (every page and list) are compressed in one synchronous call (about 1.2 ms for a page):
    // the library's default on two cores (8 KB) sent them through a compression stream each, which under 50
    // connections held close to a gigabyte of encoder buffers and served a kept page 200 times a second.
    syncThreshold: 256 * 1024,
    customTypes: isCompressibleType,
    globalDecompression: false,
  });
}
