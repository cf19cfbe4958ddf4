import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { answerClientError } from './core/client-error.js';
import { rewriteApiv3 } from './core/apiv3-alias.js';
import { parseQueryString } from './core/query-string.js';
import { registerCompression } from './core/compression.js';
import { UPLOAD_LIMIT_BYTES } from './core/multipart.js';
import { registerSecurityHeaders } from './core/security-headers.js';
import { registerPublicFiles } from './core/storage/public-files.js';
import { zodValidatorCompiler } from './core/validation.js';
import { apiRoutes } from './api.js';
import { subscribeToEvents } from './subscribers.js';
import { legacyRedirectsRoutes } from './modules/legacy-redirects/index.js';
import { registerThreadParts } from './thread-parts.js';
import { docsPlugin } from './modules/docs/index.js';
import { pluginAssetsRoutes } from './modules/plugins/index.js';
import { seoRoutes } from './modules/web/index.js';
import { feedsRoutes } from './modules/feeds/index.js';
import { pwaRoutes } from './modules/pwa/index.js';
import { LinkPreviewWorker } from './modules/link-previews/index.js';
import { webRoutes } from './modules/web/index.js';

export async function buildApp(
  base: Omit<AppContext, 'log' | 'linkPreviews'>,
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: base.config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: () => randomUUID(),
    trustProxy: trustProxyOption(base.config.trustProxy),
    bodyLimit: base.config.bodyLimit,
    // While stopping, a request that still arrives on an open keep-alive connection is served (with
    // `Connection: close`) rather than refused with Fastify's own 503 body, which is not our envelope.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    // `/apiv3/x` is the family's other spelling of `/api/v3/x`, `/plugin/<appid>/api/x` of a plugin's
    // `/api/plugin/<appid>/x` (core/apiv3-alias.ts).
    rewriteUrl: rewriteApiv3,
    routerOptions: {
      // The family's query form: filter[sort]=1, filter[categoryids][]=2, a[0]=1&a[1]=2.
      querystringParser: parseQueryString,
    },
  });
  const ctx = { ...base, log: app.log } as AppContext;
  ctx.linkPreviews = new LinkPreviewWorker(ctx);
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => ctx.limits.store.close());
  app.addHook('onClose', async () => ctx.pages.close());
  app.addHook('onClose', async () => ctx.events.stop());
  subscribeToEvents(ctx);
  registerThreadParts(ctx);
  // A write may have announced events: its transaction has committed by the time its answer went out.
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') ctx.events.wake();
  });
  // Webhook deliveries stop with the app, before the database closes (server.ts); what was cut short is sent later.
  ctx.webhooks.start(app.log);
  app.addHook('onClose', async () => ctx.webhooks.stop());
  ctx.backups.start(app.log);
  app.addHook('onClose', async () => ctx.backups.stop());
  ctx.linkPreviews.start(app.log);
  app.addHook('onClose', async () => ctx.linkPreviews.stop());
  app.decorateRequest('viewer');
  if (ctx.config.processHeader) {
    // Which process answered (LUNTAN_PROCESS_HEADER=1): the cluster worker's id (0 without a cluster) and its pid.
    const worker = String(cluster.worker?.id ?? 0);
    const pid = String(process.pid);
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('x-luntan-worker', worker).header('x-luntan-pid', pid);
    });
  }
  app.setValidatorCompiler(zodValidatorCompiler);

  await registerSecurityHeaders(app);
  // Before any route: it hooks into each route as the route is declared.
  await registerCompression(app);
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20 } });
  await app.register(docsPlugin);

  app.addHook('onClose', async () => ctx.files.close());
  await registerPublicFiles(app, {
    files: ctx.files,
    uploadsDir: ctx.uploadsDir,
    publicUrl: ctx.config.storagePublicUrl,
  });

  await app.register(apiRoutes, { prefix: '/api' });
  await app.register(legacyRedirectsRoutes);
  await app.register(pluginAssetsRoutes);
  await app.register(seoRoutes);
  await app.register(feedsRoutes);
  await app.register(pwaRoutes);
  await app.register(webRoutes);
  return app;
}

/** A hop count becomes a function: Fastify's types take a boolean, addresses or a function. */
function trustProxyOption(value: boolean | number | string) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}
