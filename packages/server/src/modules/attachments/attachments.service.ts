import {
  AttachmentType,
  Code,
  IMAGE_DEFAULT_QUALITY,
  attachmentUploadType,
  queryId,
  withoutNul,
  THREAD_PART_PERMISSIONS,
  type AttachmentItem,
  type AttachmentTypeValue,
  type FileAttachmentItem,
  type ImageQuery,
} from '@luntan/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, forbidden, invalidField } from '../../core/errors.js';
import { readMultipartUpload, sizeText, UPLOAD_LIMIT_BYTES } from '../../core/multipart.js';
import { PUBLIC_PREFIX } from '../../core/storage/index.js';
import { now } from '../../core/time.js';
import { RequestValidationError } from '../../core/validation.js';
import type { Attachment } from '../../db/schema.js';
import { can, canAnywhere, requireUser } from '../../access/viewer.js';
import { findCategory } from '../categories/index.js';
import { categoryNotFound } from '../categories/index.js';
import { readSetting, readSiteSettings } from '../settings/index.js';
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
import { allowedExtensions, checkFileUpload, maxFileBytes, presentFileAttachment, storeFile } from './files.js';

/** The permission each kind of upload needs (the part it is for). */
const UPLOAD_PERMISSION: Readonly<Record<AttachmentTypeValue, string>> = {
  [AttachmentType.FILE]: THREAD_PART_PERMISSIONS[108],
  [AttachmentType.IMAGE]: 'thread.insertImage',
  [AttachmentType.AUDIO]: THREAD_PART_PERMISSIONS[102],
  [AttachmentType.VIDEO]: THREAD_PART_PERMISSIONS[103],
};
/** Whoever holds none of these may upload nothing: refused before the body is read. */
export const UPLOAD_PERMISSIONS = Object.values(UPLOAD_PERMISSION);

export function presentAttachment(a: Attachment): AttachmentItem {
  const ext = extensionOf(a.format);
  const url = `/api/v3/attachments/${a.fileKey}.${ext}`;
  // An image keeps its sizes as a list; audio and video keep {"duration": n} there, and files [] or {}.
  const kept = JSON.parse(a.sizes) as unknown;
  const sizes = Array.isArray(kept) ? (kept as StoredImage['sizes']) : [];
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

/**
 * POST /api/v3/attachments: reads the multipart upload, checks it, stores the image in its sizes, or the file,
 * audio or video as it came (files.ts).
 */
export async function uploadAttachment(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<AttachmentItem | FileAttachmentItem> {
  const user = requireUser(request.viewer);
  const imageLimit = await sizeLimitBytes(ctx);
  const site = await readSiteSettings(ctx.db);
  const fileLimit = maxFileBytes(site.supportMaxSize);
  // The type is known only once the form is read: read up to the larger limit, then hold each type to its own.
  const { file, fields } = await readMultipartUpload(request, {
    field: 'file',
    label: msg('media.file'),
    fileSize: Math.max(imageLimit, fileLimit),
  });
  const type = attachmentUploadType.safeParse(fields.get('type'), { reportInput: true });
  if (!type.success) throw field(type.error.issues, 'type');
  const permission = UPLOAD_PERMISSION[type.data];
  if (!canAnywhere(request.viewer, permission)) throw forbidden();
  let categoryId: number | undefined;
  if (fields.get('categoryId')) {
    const parsed = queryId.safeParse(fields.get('categoryId'), { reportInput: true });
    if (!parsed.success) throw field(parsed.error.issues, 'categoryId');
    const category = await findCategory(ctx.db, parsed.data);
    if (!category) throw categoryNotFound();
    categoryId = category.id;
    if (!can(request.viewer, permission, categoryId)) throw forbidden();
  }
  if (type.data !== AttachmentType.IMAGE) {
    if (!file) throw invalidField('file', msg('media.chooseFileUpload'));
    const fileName = withoutNul(file.fileName).slice(0, 255);
    const format = await checkFileUpload(type.data, fileName, file.bytes, {
      fileExtensions: allowedExtensions(site.supportFileExt),
      maxBytes: fileLimit,
    });
    const duration = Number(fields.get('duration') ?? 0);
    const stored = await storeFile(ctx.files, file.bytes, format);
    const row = {
      ...stored,
      userId: user.id,
      postId: null,
      type: type.data,
      fileName,
      format,
      fileSize: file.bytes.length,
      width: 0,
      height: 0,
      isAnimated: 0,
      // The uploader's browser reads the duration from the file's metadata (the editor sends it along).
      sizes: JSON.stringify(Number.isFinite(duration) && duration > 0 && duration < 864_000 ? { duration } : {}),
      createdAt: now(),
    };
    const id = await insertAttachment(ctx.db, row);
    return presentFileAttachment({ id, ...row });
  }
  if (!file) throw invalidField('file', msg('attachments.chooseImageUpload'));
  if (file.bytes.length > imageLimit) {
    const label = msg('attachments.image');
    throw invalidField(
      'file',
      msg('core.most', { labelZh: label.zh, sizeText: sizeText(imageLimit), labelEn: label.en.toLowerCase() }),
    );
  }
  const { bytes } = file;
  const fileName = withoutNul(file.fileName).slice(0, 255);

  const image = await sniffImage(bytes);
  const stored = await storeImage(ctx.files, bytes, image, request.log);
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

/** GET /api/v3/attachments/<key>.<ext>: the image as the query form asks, kept in the store once rendered. */
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
  const dir = `${PUBLIC_PREFIX}${a.fileDir}`;
  const ext = extensionOf(format);
  const plain = v.format === format && !v.fps && !v.width && v.quality === IMAGE_DEFAULT_QUALITY;
  const stored = async (key: string) => {
    const bytes = await ctx.files.read(key);
    if (!bytes) throw imageNotFound();
    return bytes;
  };

  let body: Buffer;
  if (plain && !v.thumb) body = await stored(`${dir}/${key}.${ext}`);
  else if (plain && v.thumb) body = await stored(`${dir}/${key}_thumb.${ext}`);
  else {
    const cached = `${dir}/cache/${key}_${variantName(v)}.${extensionOf(v.format)}`;
    const kept = await ctx.files.read(cached);
    if (kept) body = kept;
    else {
      body = await renderVariant(await stored(`${dir}/${key}.${ext}`), v, animated);
      await ctx.files.put(cached, body, `image/${v.format}`);
    }
  }
  return reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'Accept')
    .type(`image/${v.format}`)
    .send(body);
}
