import {
  describeProblem,
  LOGO_TYPES,
  logoDeleteBody,
  logoUploadBody,
  settingsQuery,
  settingsUpdateBody,
  type LogoType,
} from '@luntan/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalid, invalidField } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { RequestValidationError } from '../../core/validation.js';
import { adminOnly } from '../auth/guards.js';
import { readAllSettings, readSetting, writeSetting } from './settings.repository.js';
import { checkSettingValue, decodeSetting, readSiteInfo, writeSettings } from './settings.service.js';
import { decodeDataUrl, LOGO_SETTING, removeSiteImage, sniffImage, storeSiteImage } from './site-images.js';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, uploadsDir } = app.ctx;

  api.get(
    '/siteinfo.v2',
    {
      config: { guestCache: true },
      schema: { tags: ['settings'], summary: 'Public site information (never a secret)' },
    },
    async (request) => ok(request, await readSiteInfo(db)),
  );

  api.get(
    '/settings.v2',
    {
      onRequest: adminOnly,
      schema: { tags: ['settings', 'admin'], summary: 'Read one setting', querystring: settingsQuery },
    },
    async (request) => {
      const { key, tag } = request.query;
      const row = await readSetting(db, key, tag);
      return ok(request, { key, tag, value: decodeSetting(key, tag, row?.value) });
    },
  );

  api.post(
    '/settings.v2',
    {
      onRequest: adminOnly,
      schema: { tags: ['settings', 'admin'], summary: 'Write settings', body: settingsUpdateBody },
    },
    async (request) => {
      const { data } = request.body;
      for (const [i, entry] of data.entries()) {
        const problem = checkSettingValue(entry.key, entry.tag, entry.value);
        if (problem) {
          const field = `data.${i}.value`;
          throw invalidField(field, describeProblem(field, problem, settingsUpdateBody));
        }
      }
      await db.transaction().execute((trx) => writeSettings(trx, data));
      return ok(request, { updated: data.length });
    },
  );

  api.get(
    '/backAdmin/settings',
    { onRequest: adminOnly, schema: { tags: ['settings', 'admin'], summary: 'Every stored setting, by tag' } },
    async (request) => {
      const rows = await readAllSettings(db);
      return ok(
        request,
        rows.map((r) => ({ key: r.key, tag: r.tag, value: decodeSetting(r.key, r.tag, r.value) })),
      );
    },
  );

  api.post(
    '/settings/logo.v2',
    {
      onRequest: adminOnly,
      // A 5 MB image as a base64 data URL is about 6.7 MB of JSON.
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags: ['settings', 'admin'],
        summary: 'Upload a site image (logo, header_logo, background_image, watermark_image, favicon)',
        description:
          'JSON `{type, logo}` where logo is a data URL, or multipart/form-data with a `type` field and the file ' +
          '(field `logo` or `file`). PNG, JPEG, GIF, WebP (and ICO for the favicon), at most 5 MB, judged by the bytes.',
      },
    },
    async (request) => {
      const { type, bytes } = await readLogoUpload(request);
      const ext = await sniffImage(bytes, type);
      const url = await storeSiteImage(uploadsDir, type, bytes, ext);
      const key = LOGO_SETTING[type];
      const previous = await readSetting(db, key, 'default');
      await writeSetting(db, key, 'default', url);
      if (previous?.value && previous.value !== url) await removeSiteImage(uploadsDir, previous.value);
      return ok(request, { type, key, url });
    },
  );

  api.post(
    '/settings/delete.logo.v2',
    {
      onRequest: adminOnly,
      schema: { tags: ['settings', 'admin'], summary: 'Delete a site image', body: logoDeleteBody },
    },
    async (request) => {
      const key = LOGO_SETTING[request.body.type];
      const previous = await readSetting(db, key, 'default');
      await writeSetting(db, key, 'default', '');
      if (previous?.value) await removeSiteImage(uploadsDir, previous.value);
      return ok(request, { type: request.body.type, key });
    },
  );
}

const logoTypeSchema = z.enum(LOGO_TYPES);

async function readLogoUpload(request: FastifyRequest): Promise<{ type: LogoType; bytes: Buffer }> {
  if (request.isMultipart()) {
    let type: unknown;
    let bytes: Buffer | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'file') bytes = await part.toBuffer();
      else if (part.fieldname === 'type') type = part.value;
      else if (part.fieldname === 'logo' && typeof part.value === 'string') bytes = decodeDataUrl(part.value);
    }
    const parsed = logoTypeSchema.safeParse(type, { reportInput: true });
    if (!parsed.success) throw new RequestValidationError(prefix(parsed.error.issues, 'type'), 'body');
    if (!bytes) throw invalid({ zh: 'logo: 缺少图片文件', en: 'logo: the image file is missing' });
    return { type: parsed.data, bytes };
  }
  const parsed = logoUploadBody.safeParse(request.body ?? {}, { reportInput: true });
  if (!parsed.success) throw new RequestValidationError(parsed.error.issues, 'body');
  return { type: parsed.data.type, bytes: decodeDataUrl(parsed.data.logo) };
}

function prefix(issues: z.core.$ZodIssue[], field: string): z.core.$ZodIssue[] {
  return issues.map((i) => ({ ...i, path: [field, ...i.path] }));
}
