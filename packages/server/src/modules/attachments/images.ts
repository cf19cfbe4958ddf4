import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  IMAGE_DEFAULT_QUALITY,
  IMAGE_THUMBNAIL_LEVEL,
  IMAGE_THUMBNAIL_SIZE,
  IMAGE_WIDTHS,
  type ImageQuery,
  type ImageSize,
} from '@luntan/shared';
import sharp, { type Sharp } from 'sharp';
import { invalidField } from '../../core/errors.js';

/**
 * Image files of attachments, under DATA_DIR/uploads/attachments/YYYY/MM/:
 * `<key>.<ext>` the original (rotated upright, metadata such as GPS removed), `<key>_large.<ext>` at most 1080 px
 * wide, `<key>_medium.<ext>` at most 480 px wide, `<key>_thumb.<ext>` the 500x500 thumbnail (cropped to fill), and
 * `cache/<key>_<variant>.<ext>` the versions asked for through the query form (quality, width, frame rate, WebP).
 */

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';
const EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' };
export const extensionOf = (format: string): string => EXTENSIONS[format as ImageFormat] ?? format;

/** Refuses images whose pixels would take too much memory to decode (a "decompression bomb"). */
const MAX_PIXELS = 40_000_000;
/** Animated images: at most this many frames. */
const MAX_FRAMES = 300;
const DISPLAY_SIZES = [
  { name: 'large', width: 1080 },
  { name: 'medium', width: 480 },
] as const;

export interface SniffedImage {
  format: ImageFormat;
  width: number;
  height: number;
  pages: number;
}

const refuse = () =>
  invalidField('file', {
    zh: '只支持 JPEG、PNG、GIF、WebP 图片',
    en: 'Only JPEG, PNG, GIF and WebP images are accepted',
  });

/** The image's real type and size, judged from its bytes (never from its name or declared type). */
export async function sniffImage(bytes: Buffer): Promise<SniffedImage> {
  if (bytes.length === 0) throw invalidField('file', { zh: '图片是空的', en: 'The image is empty' });
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { animated: true, limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    throw refuse();
  }
  const format = meta.format as string | undefined;
  if (format !== 'jpeg' && format !== 'png' && format !== 'gif' && format !== 'webp') throw refuse();
  const pages = meta.pages ?? 1;
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (width <= 0 || height <= 0) throw refuse();
  if (width * height * pages > MAX_PIXELS * 4 || pages > MAX_FRAMES) {
    throw invalidField('file', { zh: '图片尺寸或帧数过大', en: 'The image has too many pixels or frames' });
  }
  return { format, width, height, pages };
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

const open = (input: Buffer | string, animated: boolean) =>
  sharp(input, { animated, limitInputPixels: MAX_PIXELS }).rotate();

export interface StoredImage {
  fileDir: string;
  fileKey: string;
  sizes: { name: ImageSize['name']; width: number; height: number; file: string }[];
}

/** Writes the original and its display sizes and thumbnail; answers what was written. */
export async function storeImage(uploadsDir: string, bytes: Buffer, image: SniffedImage): Promise<StoredImage> {
  const now = new Date();
  const fileDir = `attachments/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const dir = path.join(uploadsDir, fileDir);
  await fs.mkdir(dir, { recursive: true });
  const fileKey = randomBytes(16).toString('base64url');
  const ext = extensionOf(image.format);
  const animated = image.pages > 1;
  const sizes: StoredImage['sizes'] = [];

  // The original: a GIF is kept byte for byte (it carries no camera metadata); others are re-encoded upright
  // without their metadata.
  const originalFile = `${fileKey}.${ext}`;
  if (image.format === 'gif') await fs.writeFile(path.join(dir, originalFile), bytes);
  else await encode(open(bytes, animated), image.format, 92).toFile(path.join(dir, originalFile));
  const upright = await sharp(path.join(dir, originalFile), { animated }).metadata();
  const width = upright.width ?? image.width;
  const height = upright.pageHeight ?? upright.height ?? image.height;
  sizes.push({ name: 'original', width, height, file: originalFile });

  for (const size of DISPLAY_SIZES) {
    if (width <= size.width) continue;
    const file = `${fileKey}_${size.name}.${ext}`;
    await encode(open(bytes, animated).resize({ width: size.width }), image.format, IMAGE_DEFAULT_QUALITY).toFile(
      path.join(dir, file),
    );
    sizes.push({ name: size.name, width: size.width, height: Math.round((height * size.width) / width), file });
  }
  // A small image is not blown up: its thumbnail is the image cropped to a square of at most 500 px.
  const thumbFile = `${fileKey}_thumb.${ext}`;
  const thumb = await encode(
    open(bytes, animated).resize(IMAGE_THUMBNAIL_SIZE, IMAGE_THUMBNAIL_SIZE, {
      fit: 'cover',
      withoutEnlargement: true,
    }),
    image.format,
    IMAGE_DEFAULT_QUALITY,
  ).toFile(path.join(dir, thumbFile));
  sizes.push({ name: 'thumb', width: thumb.width, height: thumb.pageHeight ?? thumb.height, file: thumbFile });
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
export async function renderVariant(originalPath: string, v: ImageVariant, animated: boolean): Promise<Buffer> {
  let image = open(originalPath, animated);
  if (v.thumb) {
    image = image.resize(IMAGE_THUMBNAIL_SIZE, IMAGE_THUMBNAIL_SIZE, { fit: 'cover', withoutEnlargement: true });
  } else if (v.width) image = image.resize({ width: v.width });
  if (!animated || !v.fps) return encode(image, v.format, v.quality).toBuffer();

  const meta = await sharp(originalPath, { animated: true }).metadata();
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
