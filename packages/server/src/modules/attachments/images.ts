import { randomBytes } from 'node:crypto';
import {
  IMAGE_DEFAULT_QUALITY,
  IMAGE_THUMBNAIL_LEVEL,
  IMAGE_THUMBNAIL_SIZE,
  IMAGE_WIDTHS,
  type ImageQuery,
  type ImageSize,
} from '@luntan/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Sharp } from 'sharp';
import { loadSharp, type SharpLib } from '../../core/sharp.js';
import { invalidField } from '../../core/errors.js';
import { decodeOptions, decodeUpload, readImageHeader } from '../../core/image-input.js';
import { PUBLIC_PREFIX, type FileStore } from '../../core/storage/index.js';
import { msg } from '../../i18n/index.js';

/**
 * Image files of attachments, under DATA_DIR/uploads/attachments/YYYY/MM/:
 * `<key>.<ext>` the original (rotated upright, metadata such as GPS removed), `<key>_large.<ext>` at most 1080 px
 * wide, `<key>_medium.<ext>` at most 480 px wide, `<key>_thumb.<ext>` the 500x500 thumbnail (cropped to fill), and
 * `cache/<key>_<variant>.<ext>` the versions asked for through the query form (quality, width, frame rate, WebP).
 */

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';
const EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' };
export const extensionOf = (format: string): string => EXTENSIONS[format as ImageFormat] ?? format;

const DISPLAY_SIZES = [
  { name: 'large', width: 1080 },
  { name: 'medium', width: 480 },
] as const;
const FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'gif', 'webp'];

export interface SniffedImage {
  format: ImageFormat;
  width: number;
  height: number;
  pages: number;
}

/** The image's real type and size, judged from its bytes (never from its name or declared type). */
export async function sniffImage(bytes: Buffer): Promise<SniffedImage> {
  if (bytes.length === 0) throw invalidField('file', msg('attachments.imageEmpty'));
  const header = await readImageHeader(bytes, 'file', FORMATS, msg('attachments.onlyJpegPngGif'));
  return { ...header, format: header.format as ImageFormat };
}

/** Encodes in `format`; quality applies to JPEG and WebP. */
function encode(image: Sharp, format: ImageFormat, quality: number, delay?: number[]): Sharp {
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality, progressive: true });
    case 'png':
      return image.png({ compressionLevel: 9 });
    case 'gif':
      // Without dithering, GIF encoding is several times faster and the frames compress better.
      return image.gif({ dither: 0, ...(delay ? { delay, loop: 0 } : {}) });
    case 'webp':
      return image.webp({ quality, effort: 4, ...(delay ? { delay, loop: 0 } : {}) });
  }
}

const open = (sharp: SharpLib, input: Buffer | string, animated: boolean) =>
  sharp(input, decodeOptions(animated)).rotate();

export interface StoredImage {
  fileDir: string;
  fileKey: string;
  sizes: { name: ImageSize['name']; width: number; height: number; file: string }[];
}

/**
 * Writes the original and its display sizes and thumbnail; answers what was written. Every file is made in memory
 * first: a damaged image fails while it is decoded (-4001), before anything is written.
 */
export async function storeImage(
  files: FileStore,
  bytes: Buffer,
  image: SniffedImage,
  log?: FastifyBaseLogger,
  /** An imported file: its own place and key, and its original kept byte for byte (display sizes made anew). */
  imported?: { fileDir: string; fileKey: string },
): Promise<StoredImage> {
  const now = new Date();
  const fileDir =
    imported?.fileDir ?? `attachments/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const fileKey = imported?.fileKey ?? randomBytes(16).toString('base64url');
  const ext = extensionOf(image.format);
  const animated = image.pages > 1;
  const sizes: StoredImage['sizes'] = [];
  const encoded: Buffer[] = [];
  const sharp = await loadSharp();

  await decodeUpload(
    'file',
    async () => {
      // The original: a GIF is kept byte for byte (it carries no camera metadata); others are re-encoded upright
      // without their metadata.
      const original =
        image.format === 'gif' || imported
          ? bytes
          : await encode(open(sharp, bytes, animated), image.format, 92).toBuffer();
      const upright = await sharp(original, { animated }).metadata();
      const width = upright.width ?? image.width;
      const height = upright.pageHeight ?? upright.height ?? image.height;
      sizes.push({ name: 'original', width, height, file: `${fileKey}.${ext}` });
      encoded.push(original);

      for (const size of DISPLAY_SIZES) {
        if (width <= size.width) continue;
        encoded.push(
          await encode(
            open(sharp, bytes, animated).resize({ width: size.width }),
            image.format,
            IMAGE_DEFAULT_QUALITY,
          ).toBuffer(),
        );
        const file = `${fileKey}_${size.name}.${ext}`;
        sizes.push({ name: size.name, width: size.width, height: Math.round((height * size.width) / width), file });
      }
      // A small image is not blown up: its thumbnail is the image cropped to a square of at most 500 px.
      const thumb = await encode(
        open(sharp, bytes, animated).resize(IMAGE_THUMBNAIL_SIZE, IMAGE_THUMBNAIL_SIZE, {
          fit: 'cover',
          withoutEnlargement: true,
        }),
        image.format,
        IMAGE_DEFAULT_QUALITY,
      ).toBuffer({ resolveWithObject: true });
      const thumbHeight = thumb.info.pageHeight ?? thumb.info.height;
      sizes.push({ name: 'thumb', width: thumb.info.width, height: thumbHeight, file: `${fileKey}_thumb.${ext}` });
      encoded.push(thumb.data);
    },
    log,
  );

  await Promise.all(
    sizes.map((size, i) => files.put(`${PUBLIC_PREFIX}${fileDir}/${size.file}`, encoded[i]!, `image/${image.format}`)),
  );
  return { fileDir, fileKey, sizes };
}

/** What one request of the query form asks for, normalised so that equal requests share one cached file. */
export interface ImageVariant {
  thumb: boolean;
  width: number | null;
  quality: number;
  fps: number | null;
  format: ImageFormat;
}

export function imageVariant(
  q: ImageQuery,
  original: { format: ImageFormat; width: number; animated: boolean },
  acceptsWebp: boolean,
): ImageVariant {
  const thumb = q.level === IMAGE_THUMBNAIL_LEVEL;
  // Qualities in steps of 10 and frame rates in steps of 5 keep the number of cached files per image small.
  const quality =
    q.level && !thumb ? Math.min(90, Math.max(10, Math.round((100 - q.level) / 10) * 10)) : IMAGE_DEFAULT_QUALITY;
  const fps = q.fps ? Math.min(30, Math.max(5, Math.round(q.fps / 5) * 5)) : null;
  let width: number | null = null;
  if (!thumb && q.width) {
    const step = IMAGE_WIDTHS.find((w) => w >= q.width!) ?? IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
    width = step < original.width ? step : null;
  }
  return {
    thumb,
    width,
    quality,
    fps: original.animated ? fps : null,
    format: acceptsWebp ? 'webp' : original.format,
  };
}

export const variantName = (v: ImageVariant): string =>
  [v.thumb ? 'thumb' : v.width ? `w${v.width}` : 'full', `q${v.quality}`, v.fps ? `f${v.fps}` : '']
    .filter(Boolean)
    .join('_');

/**
 * Renders a variant from the original file. A frame rate drops frames (summing their delays) so that at most
 * `fps` frames play per second, as the spec's compression of GIFs does.
 */
export async function renderVariant(original: Buffer, v: ImageVariant, animated: boolean): Promise<Buffer> {
  const sharp = await loadSharp();
  let image = open(sharp, original, animated);
  if (v.thumb) {
    image = image.resize(IMAGE_THUMBNAIL_SIZE, IMAGE_THUMBNAIL_SIZE, { fit: 'cover', withoutEnlargement: true });
  } else if (v.width) image = image.resize({ width: v.width });
  if (!animated || !v.fps) return encode(image, v.format, v.quality).toBuffer();

  const meta = await sharp(original, { animated: true }).metadata();
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const pageHeight = info.pageHeight ?? info.height;
  const pages = Math.max(1, Math.round(info.height / pageHeight));
  const delays = meta.delay ?? [];
  const minGap = 1000 / v.fps;
  const frameBytes = info.width * pageHeight * info.channels;
  const kept: Buffer[] = [];
  const keptDelays: number[] = [];
  let carried = 0;
  for (let i = 0; i < pages; i += 1) {
    const delay = delays[i] ?? 100;
    if (kept.length === 0 || carried >= minGap) {
      kept.push(data.subarray(i * frameBytes, (i + 1) * frameBytes));
      keptDelays.push(delay);
      carried = delay;
    } else {
      // The dropped frame's time goes to the last kept one, so the animation keeps its speed.
      keptDelays[keptDelays.length - 1]! += delay;
      carried += delay;
    }
  }
  const strip = sharp(Buffer.concat(kept), {
    raw: {
      width: info.width,
      height: pageHeight * kept.length,
      channels: info.channels,
      premultiplied: info.premultiplied,
      pageHeight,
    },
  });
  return encode(
    strip,
    v.format,
    v.quality,
    keptDelays.map((d) => Math.min(65_535, d)),
  ).toBuffer();
}
