import {
  describeProblem,
  INTERNAL_SETTING_TAG,
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
import { invalidField } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { RequestValidationError } from '../../core/validation.js';
import { adminOnly } from '../../access/guards.js';
import { readAllSettings, readSetting, writeSetting } from './settings.repository.js';
import {
  checkSettingValue,
  decodeSetting,
  environmentSettings,
  readAgreements,
  writeSettings,
} from './settings.service.js';
import { readMultipartUpload } from '../../core/multipart.js';
import {
  decodeDataUrl,
  LOGO_SETTING,
  removeSiteImage,
  SITE_IMAGE_MAX_BYTES,
  sniffImage,
  storeSiteImage,
} from './site-images.js';
import { msg } from '../../i18n/index.js';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, files } = app.ctx;

  api.get(
    '/v3/agreement',
    {
      config: { guestCache: true },
      schema: {
        tags: ['settings'],
        summary:
          'The registration agreement and the privacy policy (page /user/agreement), and whether registration asks to accept them',
      },
    },
    async (request) => ok(request, await readAgreements(db)),
  );

  api.get(
    '/settings.v2',
    {
      onRequest: adminOnly,
      schema: { tags: ['settings', 'admin'], summary: 'Read one setting', querystring: settingsQuery },
    },
    async (request) => {
      const { key, tag } = request.query;
      if (tag === INTERNAL_SETTING_TAG) throw invalidField('tag', msg('settings.settingCannotRead'));
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
        const found = checkSettingValue(entry.key, entry.tag, entry.value);
        if (found) {
          const field = `data.${i}.${found.part}`;
          throw invalidField(field, describeProblem(field, found.problem, settingsUpdateBody));
        }
      }
      await db.transaction().execute((trx) => writeSettings(trx, data));
      return ok(request, { updated: data.length });
    },
  );

  api.get(
    '/backAdmin/settings',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['settings', 'admin'],
        summary: 'Every stored setting, by tag',
        description:
          'A setting the server environment decides (paySandbox with PAYMENT_SANDBOX=1) is answered with the value ' +
          'in force and `fromEnvironment`, the variable that sets it: the back office shows it, not editable.',
      },
    },
    async (request) => {
      const forced = environmentSettings(app.ctx.config);
      const isForced = (r: { key: string; tag: string }) => forced.some((f) => f.key === r.key && f.tag === r.tag);
      const rows = (await readAllSettings(db)).filter((r) => r.tag !== INTERNAL_SETTING_TAG && !isForced(r));
      return ok(request, [
        ...rows.map((r) => ({ key: r.key, tag: r.tag, value: decodeSetting(r.key, r.tag, r.value) })),
        ...forced,
      ]);
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
      const ext = await sniffImage(bytes, type, request.log);
      const url = await storeSiteImage(files, type, bytes, ext);
      const key = LOGO_SETTING[type];
      const previous = await readSetting(db, key, 'default');
      await writeSetting(db, key, 'default', url);
      if (previous?.value && previous.value !== url) await removeSiteImage(files, previous.value);
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
      if (previous?.value) await removeSiteImage(files, previous.value);
      return ok(request, { type: request.body.type, key });
    },
  );
}

const logoTypeSchema = z.enum(LOGO_TYPES);

async function readLogoUpload(request: FastifyRequest): Promise<{ type: LogoType; bytes: Buffer }> {
  if (request.isMultipart()) {
    const { file, fields } = await readMultipartUpload(request, {
      field: 'logo',
      label: msg('settings.image'),
      fileSize: SITE_IMAGE_MAX_BYTES,
    });
    const dataUrl = fields.get('logo');
    const bytes = file?.bytes ?? (dataUrl === undefined ? undefined : decodeDataUrl(dataUrl));
    const parsed = logoTypeSchema.safeParse(fields.get('type'), { reportInput: true });
    if (!parsed.success) throw new RequestValidationError(prefix(parsed.error.issues, 'type'), 'body');
    if (!bytes) throw invalidField('logo', msg('settings.chooseImageUpload'));
    return { type: parsed.data, bytes };
  }
  const parsed = logoUploadBody.safeParse(request.body ?? {}, { reportInput: true });
  if (!parsed.success) throw new RequestValidationError(parsed.error.issues, 'body');
  return { type: parsed.data.type, bytes: decodeDataUrl(parsed.data.logo) };
}

function prefix(issues: z.core.$ZodIssue[], field: string): z.core.$ZodIssue[] {
  return issues.map((i) => ({ ...i, path: [field, ...i.path] }));
}
