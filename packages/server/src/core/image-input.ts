import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { AppError, invalidField, type LocalizedText } from './errors.js';

/*
 * Images people upload (avatars, backgrounds, attachments, site images), judged from their bytes. Decoding costs memory
 * by the pixels, not by the bytes: a small PNG can hold a billion pixels (a "decompression bomb"), so the size is read
 * from the header and refused before a pixel is decoded.
 */

/** The largest frame decoded, in pixels. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** An animation: all its frames together, and how many frames. */
export const MAX_ANIMATION_PIXELS = MAX_IMAGE_PIXELS * 4;
export const MAX_ANIMATION_FRAMES = 300;

export interface ImageHeader {
  /** sharp's name of the format: jpeg, png, gif, webp... */
  format: string;
  width: number;
  /** The height of one frame. */
  height: number;
  pages: number;
}

export const imageTooLarge = (field: string) =>
  invalidField(field, {
    zh: `图片太大了：最多 ${MAX_IMAGE_PIXELS / 10_000} 万像素，请缩小后再上传`,
    en: `The image is too large: at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels. Make it smaller and try again`,
  });

const tooManyFrames = (field: string) =>
  invalidField(field, {
    zh: `动图太大了：最多 ${MAX_ANIMATION_FRAMES} 帧，所有帧合计最多 ${MAX_ANIMATION_PIXELS / 10_000} 万像素`,
    en: `The animation is too large: at most ${MAX_ANIMATION_FRAMES} frames and ${MAX_ANIMATION_PIXELS / 1_000_000} megapixels in all`,
  });

export const imageDamaged = (field: string) =>
  invalidField(field, {
    zh: '图片已损坏，无法读取，请换一张图片',
    en: 'The image is damaged and cannot be read: please choose another one',
  });

/**
 * The format and size from the image's header. Refuses what is not an image of `formats` (with `notAccepted`, the
 * route's own sentence) and an image too large to decode; the pixels are not read here.
 */
export async function readImageHeader(
  bytes: Buffer,
  field: string,
  formats: readonly string[],
  notAccepted: LocalizedText,
): Promise<ImageHeader> {
  let meta: sharp.Metadata;
  try {
    // No pixel limit here: it would refuse a large image as "not an image"; the size is judged below instead.
    meta = await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
  } catch {
    throw invalidField(field, notAccepted);
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const pages = meta.pages ?? 1;
  if (!meta.format || !formats.includes(meta.format) || width <= 0 || height <= 0) {
    throw invalidField(field, notAccepted);
  }
  if (width * height > MAX_IMAGE_PIXELS) throw imageTooLarge(field);
  if (pages > MAX_ANIMATION_FRAMES || width * height * pages > MAX_ANIMATION_PIXELS) throw tooManyFrames(field);
  return { format: meta.format, width, height, pages };
}

/** sharp's options for decoding an upload whose header passed `readImageHeader`. */
export const decodeOptions = (animated: boolean): sharp.SharpOptions => ({
  animated,
  limitInputPixels: MAX_ANIMATION_PIXELS,
});

/**
 * Runs `work`, which decodes an uploaded image into memory (never to a file, so that a failure cannot be a full
 * disk). A header can be whole while the data behind it is not (a bad checksum, a cut-off JPEG): sharp finds out
 * only when it decodes, and that is the client's broken file, answered -4001, not a failure of ours.
 */
export async function decodeUpload<T>(field: string, work: () => Promise<T>, log?: FastifyBaseLogger): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw err;
    log?.info({ err }, 'an uploaded image could not be decoded');
    if (err instanceof Error && /exceeds pixel limit/i.test(err.message)) throw imageTooLarge(field);
    throw imageDamaged(field);
  }
}
