import { randomBytes } from 'node:crypto';
import {
  AUDIO_FORMATS,
  AttachmentType,
  VIDEO_FORMATS,
  type AttachmentTypeValue,
  type FileAttachmentItem,
} from '@luntan/shared';
import { fileTypeFromBuffer } from 'file-type';
import { invalidField } from '../../core/errors.js';
import { UPLOAD_LIMIT_BYTES, sizeText } from '../../core/multipart.js';
import { PRIVATE_PREFIX, type FileStore } from '../../core/storage/index.js';
import type { Attachment } from '../../db/schema.js';
import { msg } from '../../i18n/index.js';

/*
 * Files, audio and video of threads (attachment types 0, 2 and 3): kept as they came under DATA_DIR/files/YYYY/MM/
 * `<key>.<ext>`, outside /uploads/ (which is served to anyone), and served only through the routes that check who
 * asks (modules/media). Their type is judged from the extension and the bytes together: where file-type knows the
 * bytes, they must agree with the extension, so that a program renamed .pdf is refused.
 */

/** Names the bytes may be sniffed as for an extension (formats that share a container, spellings of one name). */
const SAME_AS: Readonly<Record<string, readonly string[]>> = {
  jpg: ['jpg', 'jpeg'],
  jpeg: ['jpg', 'jpeg'],
  tif: ['tif', 'tiff'],
  tiff: ['tif', 'tiff'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pptx: ['pptx', 'zip'],
  odt: ['odt', 'zip'],
  ods: ['ods', 'zip'],
  odp: ['odp', 'zip'],
  epub: ['epub', 'zip'],
  apk: ['apk', 'zip'],
  doc: ['doc', 'cfb'],
  xls: ['xls', 'cfb'],
  ppt: ['ppt', 'cfb'],
  msg: ['msg', 'cfb'],
  mp4: ['mp4', 'm4v', 'm4a', 'mov', 'm4b', 'm4p', 'f4v', '3gp'],
  m4a: ['m4a', 'mp4', 'm4b', 'm4p', 'f4a'],
  m4v: ['m4v', 'mp4'],
  ogg: ['ogg', 'oga', 'ogv', 'ogx', 'opus', 'spx', 'ogm'],
  oga: ['ogg', 'oga', 'opus', 'spx'],
  opus: ['ogg', 'oga', 'opus'],
  webm: ['webm', 'mkv'],
  mkv: ['mkv', 'webm'],
  gz: ['gz', 'tgz'],
  tgz: ['gz', 'tgz'],
  mp3: ['mp3', 'mpga'],
};

export const extensionOfName = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/** The extensions of the supportFileExt setting ("pdf, .docx" → pdf, docx). */
export const allowedExtensions = (setting: unknown): string[] =>
  String(setting ?? '')
    .split(/[\s,;，]+/)
    .map((e) => e.replace(/^\./, '').toLowerCase())
    .filter((e) => /^[a-z0-9]{1,10}$/.test(e));

/** Refuses bytes that contradict the extension (where file-type knows them); answers what they were sniffed as. */
async function assertBytesFit(bytes: Buffer, ext: string): Promise<string | undefined> {
  const sniffed = await fileTypeFromBuffer(bytes);
  if (!sniffed) return undefined;
  const fits = SAME_AS[ext] ?? [ext];
  if (!fits.includes(sniffed.ext)) {
    throw invalidField('file', msg('media.contentMismatch', { ext, actual: sniffed.ext }));
  }
  return sniffed.ext;
}

const labelOf = (type: AttachmentTypeValue) =>
  type === AttachmentType.AUDIO
    ? msg('media.audio')
    : type === AttachmentType.VIDEO
      ? msg('media.video')
      : msg('media.file');

export interface FileUploadRules {
  /** supportFileExt, for files (type 0). */
  fileExtensions: string[];
  /** supportMaxSize in bytes. */
  maxBytes: number;
}

/** The largest file, audio or video upload from the supportMaxSize setting (MiB), never above the server's limit. */
export const maxFileBytes = (supportMaxSizeMiB: unknown): number =>
  Math.max(1024, Math.min(UPLOAD_LIMIT_BYTES, Math.floor((Number(supportMaxSizeMiB) || 20) * 1024 * 1024)));

/** Checks an uploaded file, audio or video by its name, size and bytes; answers its format (extension). */
export async function checkFileUpload(
  type: AttachmentTypeValue,
  fileName: string,
  bytes: Buffer,
  rules: FileUploadRules,
): Promise<string> {
  const label = labelOf(type);
  if (bytes.length === 0) throw invalidField('file', msg('media.fileEmpty'));
  if (bytes.length > rules.maxBytes) {
    throw invalidField(
      'file',
      msg('core.most', { labelZh: label.zh, sizeText: sizeText(rules.maxBytes), labelEn: label.en.toLowerCase() }),
    );
  }
  const ext = extensionOfName(fileName);
  if (type === AttachmentType.FILE) {
    if (!ext || !rules.fileExtensions.includes(ext)) {
      throw invalidField(
        'file',
        msg('media.extNotAllowed', { ext: ext || '?', allowed: rules.fileExtensions.join(', ') }),
      );
    }
    await assertBytesFit(bytes, ext);
    return ext;
  }
  const formats = type === AttachmentType.AUDIO ? AUDIO_FORMATS : VIDEO_FORMATS;
  const allowed = Object.keys(formats).join(', ');
  const refused = () =>
    invalidField('file', {
      zh: msg('media.mediaNotAllowed', { label: label.zh, allowed }).zh,
      en: msg('media.mediaNotAllowed', { label: label.en.toLowerCase(), allowed }).en,
    });
  if (!(ext in formats)) throw refused();
  // Audio and video must be known by their bytes too: a player is only ever given what file-type recognised.
  const sniffed = await fileTypeFromBuffer(bytes);
  if (!sniffed || !(SAME_AS[ext] ?? [ext]).includes(sniffed.ext)) throw refused();
  return ext;
}

/**
 * Where a file lives in the store: files/<dir>/<key>.<ext> (DATA_DIR/files on disk: beside DATA_DIR/uploads,
 * never served as it is).
 */
export const fileStoreKey = (a: Pick<Attachment, 'fileDir' | 'fileKey' | 'format'>): string =>
  `${PRIVATE_PREFIX}${a.fileDir}/${a.fileKey}.${a.format}`;

/** Writes the file; answers its directory (under files/) and key. */
export async function storeFile(
  files: FileStore,
  bytes: Buffer,
  format: string,
  /** An imported file: its own place and key. */
  imported?: { fileDir: string; fileKey: string },
): Promise<{ fileDir: string; fileKey: string }> {
  const d = new Date();
  const fileDir = imported?.fileDir ?? `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  const fileKey = imported?.fileKey ?? randomBytes(16).toString('base64url');
  await files.put(fileStoreKey({ fileDir, fileKey, format }), bytes, 'application/octet-stream');
  return { fileDir, fileKey };
}

/** Seconds of audio or video, as kept in `sizes` ({"duration": n}); 0 when unknown. */
export function durationOf(a: Pick<Attachment, 'sizes'>): number {
  try {
    const v = JSON.parse(a.sizes) as { duration?: unknown };
    const n = Number(v && !Array.isArray(v) ? v.duration : 0);
    return Number.isFinite(n) && n > 0 ? Math.round(n * 10) / 10 : 0;
  } catch {
    return 0;
  }
}

export function presentFileAttachment(a: Attachment): FileAttachmentItem {
  return {
    id: a.id,
    type: a.type,
    fileName: a.fileName,
    format: a.format,
    fileSize: a.fileSize,
    duration: durationOf(a),
  };
}

/** The MIME type to serve audio or video with (files are served as application/octet-stream). */
export function mediaMimeType(a: Pick<Attachment, 'type' | 'format'>): string {
  if (a.type === AttachmentType.AUDIO) return AUDIO_FORMATS[a.format] ?? 'application/octet-stream';
  if (a.type === AttachmentType.VIDEO) return VIDEO_FORMATS[a.format] ?? 'application/octet-stream';
  return 'application/octet-stream';
}
