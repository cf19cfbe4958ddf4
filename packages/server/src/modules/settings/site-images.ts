import { createHash } from 'node:crypto';
import type { LogoType } from '@luntan/shared';
import type { FastifyBaseLogger } from 'fastify';
import { loadSharp } from '../../core/sharp.js';
import { invalidField } from '../../core/errors.js';
import { decodeOptions, decodeUpload, readImageHeader } from '../../core/image-input.js';
import { PUBLIC_PREFIX, contentTypeOfKey, type FileStore } from '../../core/storage/index.js';
import { msg } from '../../i18n/index.js';

/** Largest site image (logo, favicon, background), bytes. */
export const SITE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The setting each logo type is kept in. */
export const LOGO_SETTING: Record<LogoType, string> = {
  logo: 'siteLogo',
  header_logo: 'siteHeaderLogo',
  background_image: 'siteBackgroundImage',
  watermark_image: 'siteWatermarkImage',
  favicon: 'siteFavicon',
};

const RASTER_EXTENSIONS: Record<string, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/**
 * The file extension for an image, judged from its bytes (never from the name or the declared type). SVG is refused:
 * it can carry scripts. The file is kept byte for byte, so it is decoded once here: a damaged one would be stored and
 * then fail in every visitor's browser.
 */
export async function sniffImage(bytes: Buffer, type: LogoType, log?: FastifyBaseLogger): Promise<string> {
  if (bytes.length === 0) throw invalidField('logo', msg('settings.imageEmpty'));
  if (bytes.length > SITE_IMAGE_MAX_BYTES) {
    throw invalidField('logo', msg('settings.imageMost5Mb'));
  }
  if (type === 'favicon' && bytes.length > 4 && bytes.readUInt32BE(0) === 0x00000100) return 'ico';
  const header = await readImageHeader(bytes, 'logo', Object.keys(RASTER_EXTENSIONS), msg('settings.onlyPngJpegGif'));
  const sharp = await loadSharp();
  await decodeUpload('logo', () => sharp(bytes, decodeOptions(header.pages > 1)).stats(), log);
  return RASTER_EXTENSIONS[header.format]!;
}

/** Decodes `data:image/...;base64,...`. */
export function decodeDataUrl(value: string): Buffer {
  // The header by a pattern, the megabytes after it by a search for a character base64 does not have: one pattern over
  // the whole value made V8 throw "Maximum call stack size exceeded" on a 7 MB value when the stack was already deep
  // (an internal error instead of -4001, seen in the test of a 5 MB image).
  const header = /^data:[\w/+.-]+;base64,/.exec(value.slice(0, 256));
  const payload = header ? value.slice(header[0].length) : '';
  if (!header || payload.length === 0 || /[^A-Za-z0-9+/=\s]/.test(payload)) {
    throw invalidField('logo', msg('settings.imageDataUrl'));
  }
  return Buffer.from(payload, 'base64');
}

/** Stores the image under uploads/site (DATA_DIR/uploads/site on disk) and answers its public path. */
export async function storeSiteImage(files: FileStore, type: LogoType, bytes: Buffer, ext: string): Promise<string> {
  const name = `${type}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${ext}`;
  const key = `${PUBLIC_PREFIX}site/${name}`;
  await files.put(key, bytes, contentTypeOfKey(key));
  return `/${key}`;
}

/** Removes a previously stored site image, if the path is one of ours. */
export async function removeSiteImage(files: FileStore, publicPath: string): Promise<void> {
  const match = /^\/uploads\/site\/([\w.-]+)$/.exec(publicPath);
  if (!match) return;
  await files.delete(`${PUBLIC_PREFIX}site/${match[1]!}`);
}
