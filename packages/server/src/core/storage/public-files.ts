import fs from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_PREFIX, assertKey, contentTypeOfKey, type FileStore } from './file-store.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /uploads/<path>: the public files, at the addresses the forum has always given out. With STORAGE_PUBLIC_URL
 * (a CDN) the address redirects there; else files on disk are served as they are, and objects in a bucket are
 * streamed from it. Every name under /uploads/ is new for new bytes (a key or a hash), so answers are immutable.
 */
export async function registerPublicFiles(
  app: FastifyInstance,
  options: { files: FileStore; uploadsDir: string; publicUrl: string | undefined },
): Promise<void> {
  const { files, uploadsDir, publicUrl } = options;
  if (!publicUrl && files.kind === 'disk') {
    fs.mkdirSync(uploadsDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: uploadsDir,
      prefix: `/${PUBLIC_PREFIX}`,
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      index: false,
    });
    return;
  }
  // HEAD declared here, not derived from GET: the derived one would answer Content-Length 0.
  app.route({
    method: ['GET', 'HEAD'],
    url: `/${PUBLIC_PREFIX}*`,
    handler: async (request, reply) => {
      const rest = (request.params as { '*': string })['*'];
      let key: string;
      try {
        // The router has decoded the path already.
        key = assertKey(`${PUBLIC_PREFIX}${rest}`);
      } catch {
        return reply.callNotFound();
      }
      if (publicUrl) {
        // The CDN's address of the same key; the redirect itself may be kept a while, not forever.
        const target = `${publicUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
        return reply.header('cache-control', 'public, max-age=3600').redirect(target, 302);
      }
      // HEAD asks the bucket for the facts only, not for bytes to be thrown away.
      const object = request.method === 'HEAD' ? await files.stat(key) : await files.get(key);
      if (!object) return reply.callNotFound();
      const info = 'stream' in object ? object.info : object;
      const stream = 'stream' in object ? object.stream : null;
      reply
        .header('cache-control', IMMUTABLE)
        .header('etag', info.etag)
        .header('last-modified', info.lastModified.toUTCString())
        .header('x-content-type-options', 'nosniff')
        .type(info.contentType ?? contentTypeOfKey(key));
      if (request.headers['if-none-match'] === info.etag) {
        stream?.destroy();
        return reply.code(304).send();
      }
      reply.header('content-length', String(info.size));
      return stream ? reply.send(stream) : reply.send();
    },
  });
}
