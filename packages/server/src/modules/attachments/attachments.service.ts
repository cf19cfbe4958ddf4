import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  AttachmentType,
  Code,
  IMAGE_DEFAULT_QUALITY,
  attachmentUploadType,
  queryId,
  withoutNul,
  type AttachmentItem,
  type ImageQuery,
} from '@luntan/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, forbidden, invalidField } from '../../core/errors.js';
import { readMultipartUpload, UPLOAD_LIMIT_BYTES } from '../../core/multipart.js';
import { now } from '../../core/time.js';
import { RequestValidationError } from '../../core/validation.js';
import type { Attachment } from '../../db/schema.js';
import { can, requireUser } from '../../access/viewer.js';
import { findCategory } from '../categories/index.js';
import { categoryNotFound } from '../categories/index.js';
import { readSetting } from '../settings/index.js';
import { decodeSetting } from '../settings/index.js';
import { findAttachmentByKey, insertAttachment } from './attachments.repository.js';
import {
  extensionOf,
  imageVariant,
  renderVariant,
  sniffImage,
  storeImage,
  variantName,
  type ImageFormat,
  type StoredImage,
} from './images.js';
import { msg } from '../../i18n/index.js';

export function presentAttachment(a: Attachment): AttachmentItem {
  const ext = extensionOf(a.format);
  const url = `/api/v3/attachments/${a.fileKey}.${ext}`;
  const sizes = JSON.parse(a.sizes) as StoredImage['sizes'];
  return {
    id: a.id,
    type: a.type,
    fileKey: a.fileKey,
    fileName: a.fileName,
    format: a.format,
    fileSize: a.fileSize,
    width: a.width,
    height: a.height,
    isAnimated: a.isAnimated === 1,
    url,
    thumbUrl: `${url}?level=100`,
    sizes: sizes.map((s) => ({
      name: s.name,
      width: s.width,
      height: s.height,
      url: `/uploads/${a.fileDir}/${s.file}`,
    })),
  };
}

/** The attachment size limit: the attachmentSizeLimit setting (KiB), never above the server's upload limit. */
async function sizeLimitBytes(ctx: AppContext): Promise<number> {
  const row = await readSetting(ctx.db, 'attachmentSizeLimit', 'default');
  const kib = Number(decodeSetting('attachmentSizeLimit', 'default', row?.value));
  return Math.max(1, Math.min(UPLOAD_LIMIT_BYTES, Math.floor(kib * 1024)));
}

const field = (issues: RequestValidationError['issues'], name: string) =>
  new RequestValidationError(
    issues.map((i) => ({ ...i, path: [name, ...i.path] })),
    'body',
  );

/** POST /api/v3/attachments: reads the multipart upload, checks it, stores the image in its sizes. */
export async function uploadAttachment(ctx: AppContext, request: FastifyRequest): Promise<AttachmentItem> {
  const user = requireUser(request.viewer);
  const limit = await sizeLimitBytes(ctx);
  const { file, fields } = await readMultipartUpload(request, {
    field: 'file',
    label: msg('attachments.image'),
    fileSize: limit,
  });
  const type = attachmentUploadType.safeParse(fields.get('type'), { reportInput: true });
  if (!type.success) throw field(type.error.issues, 'type');
  let categoryId: number | undefined;
  if (fields.get('categoryId')) {
    const parsed = queryId.safeParse(fields.get('categoryId'), { reportInput: true });
    if (!parsed.success) throw field(parsed.error.issues, 'categoryId');
    const category = await findCategory(ctx.db, parsed.data);
    if (!category) throw categoryNotFound();
    categoryId = category.id;
    if (!can(request.viewer, 'thread.insertImage', categoryId)) throw forbidden();
  }
  if (!file) throw invalidField('file', msg('attachments.chooseImageUpload'));
  const { bytes } = file;
  const fileName = withoutNul(file.fileName).slice(0, 255);

  const image = await sniffImage(bytes);
  const stored = await storeImage(ctx.uploadsDir, bytes, image, request.log);
  const original = stored.sizes[0]!;
  const row = {
    fileKey: stored.fileKey,
    userId: user.id,
    postId: null,
    type: AttachmentType.IMAGE,
    fileDir: stored.fileDir,
    fileName,
    format: image.format,
    fileSize: bytes.length,
    width: original.width,
    height: original.height,
    isAnimated: image.pages > 1 ? 1 : 0,
    sizes: JSON.stringify(stored.sizes),
    createdAt: now(),
  };
  const id = await insertAttachment(ctx.db, row);
  return presentAttachment({ id, ...row });
}

const imageNotFound = () =>
  new AppError(Code.RESOURCE_NOT_FOUND, msg('attachments.imageNotFound'), { httpStatus: 404 });

/** Writes a file so that a reader never sees it half written. */
async function writeAtomically(file: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

/** GET /api/v3/attachments/<key>.<ext>: the image as the query form asks, cached on disk once rendered. */
export async function serveImage(
  ctx: AppContext,
  file: string,
  q: ImageQuery,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const dot = file.lastIndexOf('.');
  const key = file.slice(0, dot);
  const a = await findAttachmentByKey(ctx.db, key);
  if (!a || extensionOf(a.format) !== file.slice(dot + 1)) throw imageNotFound();
  const format = a.format as ImageFormat;
  const animated = a.isAnimated === 1;
  const acceptsWebp = /\bimage\/webp\b/i.test(String(request.headers.accept ?? ''));
  const v = imageVariant(q, { format, width: a.width, animated }, acceptsWebp);
  const dir = path.join(ctx.uploadsDir, a.fileDir);
  const ext = extensionOf(format);
  const plain = v.format === format && !v.fps && !v.width && v.quality === IMAGE_DEFAULT_QUALITY;

  let body: Buffer;
  if (plain && !v.thumb) body = await fs.readFile(path.join(dir, `${key}.${ext}`));
  else if (plain && v.thumb) body = await fs.readFile(path.join(dir, `${key}_thumb.${ext}`));
  else {
    const cached = path.join(dir, 'cache', `${key}_${variantName(v)}.${extensionOf(v.format)}`);
    try {
      body = await fs.readFile(cached);
    } catch {
      body = await renderVariant(path.join(dir, `${key}.${ext}`), v, animated);
      await writeAtomically(cached, body);
    }
  }
  return reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'Accept')
    .type(`image/${v.format}`)
    .send(body);
}
