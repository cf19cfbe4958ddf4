import {
  Code,
  CODE_MESSAGES,
  pluginListQuery,
  pluginOperateBody,
  pluginSettingInfoQuery,
  pluginSettingsBody,
  type CodeValue,
} from '@luntan/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../core/envelope.js';
import { AppError, invalidField } from '../../core/errors.js';
import { requestLocale } from '../../core/i18n.js';
import { readMultipartUpload } from '../../core/multipart.js';
import { adminOnly } from '../../access/guards.js';
import { PLUGIN_ARCHIVE_MAX_BYTES, readPluginPackage } from './plugin-package.js';
import { pluginRuntime, pluginViewer } from './plugin-runtime.js';
import {
  adminItem,
  deletePlugin,
  findPlugin,
  installPlugin,
  listAdminPlugins,
  listEnabledPlugins,
  pluginNotFound,
  publicSettings,
  savePluginSettings,
  setPluginEnabled,
} from './plugins.service.js';
import { readPluginFile } from './plugins.repository.js';
import { msg } from '../../i18n/index.js';

/**
 * What the family's web client calls of its first-party plugins (discuz-fe: activity sign-up, the shop's goods
 * and WeChat shop). A plugin installed here under the same appid answers them (with the same path); without one
 * they answer -4012 in the envelope rather than the unknown-plugin 404, so the client shows a sentence.
 */
const FAMILY_PLUGIN_CALLS: ReadonlyArray<{ method: 'GET' | 'POST'; appid: string; path: string }> = [
  { method: 'POST', appid: 'activity', path: 'register/append' },
  { method: 'POST', appid: 'activity', path: 'register/cancel' },
  { method: 'GET', appid: 'activity', path: 'register/list' },
  { method: 'POST', appid: 'shop', path: 'goods/analysis' },
  { method: 'GET', appid: 'shop', path: 'wxshop/list' },
];

const describeError = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** Plugins: the back office's calls, the pages' list, and each plugin's own routes under /api/plugin/<appid>/. */
export async function pluginsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const runtime = pluginRuntime(app.ctx);
  const tags = ['plugins'];

  /** Loads the server part of an enabled plugin; one that throws is disabled and the reason kept. */
  async function startServerPart(appid: string): Promise<string | null> {
    try {
      await runtime.load(appid);
      return null;
    } catch (err) {
      const reason = describeError(err);
      app.ctx.log.error({ err, appid }, 'a plugin server module failed to load: the plugin is disabled');
      runtime.forget(appid);
      await setPluginEnabled(db, appid, false, reason);
      return reason;
    }
  }

  const serverFailed = (reason: string) =>
    new AppError(Code.INVALID_PARAMETER, msg('plugins.pluginSServerModule', { reason }), {
      data: { field: 'server', serverError: reason },
    });

  api.get(
    '/backAdmin/plugin/list',
    { onRequest: adminOnly, schema: { tags, summary: 'Every installed plugin, enabled or not, with settings' } },
    async (request) => ok(request, await listAdminPlugins(db, requestLocale(request))),
  );

  api.post(
    '/backAdmin/plugin/upload',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Install a plugin package (multipart field `file`: a .zip or .tgz with plugin.json at its root)',
        description:
          'Checked before anything is kept: size (5 MB) and file count limits, paths inside the package, every ' +
          'rule of plugin.json (-4001 naming it). An installed plugin is replaced only by a higher version; ' +
          'otherwise -4003 says which version stays. New plugins start disabled.',
      },
    },
    async (request) => {
      const { file } = await readMultipartUpload(request, {
        field: 'file',
        label: msg('plugins.pluginPackage'),
        fileSize: PLUGIN_ARCHIVE_MAX_BYTES,
      });
      if (!file) throw invalidField('file', msg('plugins.choosePluginPackage'));
      const result = await installPlugin(db, await readPluginPackage(file.bytes), requestLocale(request));
      if (result.item.enabled) {
        const failed = await startServerPart(result.item.appid);
        if (failed) throw serverFailed(failed);
      }
      return ok(request, result);
    },
  );

  api.post(
    '/backAdmin/plugin/operate',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Enable, disable or delete a plugin: effective on the next request in every process',
        body: pluginOperateBody,
      },
    },
    async (request) => {
      const { appid, operate } = request.body;
      if (operate === 'delete') {
        await deletePlugin(db, appid);
        runtime.forget(appid);
        return ok(request, {});
      }
      if (!(await findPlugin(db, appid))) throw pluginNotFound();
      await setPluginEnabled(db, appid, operate === 'enable');
      if (operate === 'enable') {
        const failed = await startServerPart(appid);
        if (failed) throw serverFailed(failed);
      }
      return ok(request, adminItem((await findPlugin(db, appid))!, requestLocale(request)));
    },
  );

  api.post(
    '/backAdmin/plugin/settings',
    {
      onRequest: adminOnly,
      schema: { tags, summary: "Save a plugin's settings (checked against its schema)", body: pluginSettingsBody },
    },
    async (request) =>
      ok(request, await savePluginSettings(db, request.body.appid, request.body.settings, requestLocale(request))),
  );

  api.get(
    '/v3/plugin/list',
    {
      schema: {
        tags,
        summary: 'The enabled plugins for a platform: entries, module URLs (content-hashed), public settings',
        querystring: pluginListQuery,
      },
    },
    async (request) => ok(request, await listEnabledPlugins(app.ctx, request.query.platform, requestLocale(request))),
  );

  api.get(
    '/v3/plugin/settinginfo',
    { schema: { tags, summary: "An enabled plugin's public settings", querystring: pluginSettingInfoQuery } },
    async (request) =>
      ok(request, { appid: request.query.appid, settings: await publicSettings(db, request.query.appid) }),
  );

  /** A call to a plugin's own routes: its server module's router answers, in the envelope. */
  const answerPluginCall = async (request: FastifyRequest, appid: string, rest: string, family: boolean) => {
    const row = await findPlugin(db, appid);
    if (!row || row.enabled !== 1) {
      // A first-party plugin of the family's that no plugin here stands in for: its client gets a sentence.
      if (family) throw new AppError(Code.NOT_ENABLED, msg('plugins.familyPluginNotEnabled'), { data: { appid } });
      throw pluginNotFound();
    }
    let matched;
    try {
      matched = await runtime.route(appid, request.method, rest);
    } catch (err) {
      // Loaded first in this process and threw: the plugin is disabled for every process.
      const reason = describeError(err);
      app.ctx.log.error({ err, appid }, 'a plugin server module failed to load: the plugin is disabled');
      runtime.forget(appid);
      await setPluginEnabled(db, appid, false, reason);
      throw pluginNotFound();
    }
    if (!matched) throw new AppError(Code.RESOURCE_NOT_FOUND, msg('plugins.noSuchPluginRoute'));
    try {
      const data = await matched.route.handler({
        method: request.method as 'GET' | 'POST',
        path: rest,
        params: matched.params,
        query: (request.query ?? {}) as Record<string, unknown>,
        body: request.body ?? null,
        viewer: pluginViewer(request.viewer),
      });
      return ok(request, data ?? {});
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      if (typeof e?.code === 'number' && e.code in CODE_MESSAGES && e.code !== 0 && typeof e.message === 'string') {
        throw new AppError(e.code as CodeValue, e.message.slice(0, 500));
      }
      app.ctx.log.error({ err, appid, path: rest }, 'a plugin route threw');
      throw new AppError(Code.INTERNAL_ERROR, msg('plugins.pluginFailed'));
    }
  };

  api.route({
    method: ['GET', 'POST'],
    url: '/plugin/:appid/*',
    schema: {
      tags,
      summary: "A plugin's own routes (its server module's router): -4004 when the plugin is disabled or removed",
      description: 'The family’s spelling /plugin/<appid>/api/<path> reaches the same route (core/apiv3-alias.ts).',
      params: z.object({ appid: z.string().max(64), '*': z.string().max(500) }),
    },
    handler: async (request) => {
      const { appid, '*': rest } = request.params as { appid: string; '*': string };
      return answerPluginCall(request, appid, rest, false);
    },
  });

  for (const { method, appid, path } of FAMILY_PLUGIN_CALLS) {
    api.route({
      method,
      url: `/plugin/${appid}/${path}`,
      schema: {
        tags,
        summary: `The family client's call to its ${appid} plugin: the plugin "${appid}" here answers, else -4012`,
        description: `The client calls /plugin/${appid}/api/${path} (core/apiv3-alias.ts maps it here).`,
      },
      handler: async (request) => answerPluginCall(request, appid, path, true),
    });
  }
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  woff2: 'font/woff2',
  woff: 'font/woff',
  txt: 'text/plain; charset=utf-8',
};

/** A plugin's built files, by content hash: the same URL always holds the same bytes, so they are cached for good. */
export async function pluginAssetsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/plugin-assets/:appid/:hash/*', async (request, reply) => {
    const { appid, hash, '*': file } = request.params as { appid: string; hash: string; '*': string };
    const ext = file.split('.').pop()?.toLowerCase() ?? '';
    const type = CONTENT_TYPES[ext];
    const found =
      type && /^[0-9a-f]{64}$/.test(hash) && appid.length <= 64 && file.length <= 255
        ? await readPluginFile(app.ctx.db, appid, hash, file)
        : undefined;
    if (!found) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('access-control-allow-origin', '*')
      .type(type!)
      .send(Buffer.from(found.body));
  });
}
