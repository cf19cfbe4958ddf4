import type { FastifyBaseLogger } from 'fastify';
import type sharp from 'sharp';
import { loadSharp } from './sharp.js';
import { AppError, invalidField, type LocalizedText } from './errors.js';
import { msg } from '../i18n/index.js';

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
  invalidField(
    field,
    msg('core.imageTooLargeMost', { value: MAX_IMAGE_PIXELS / 10_000, value2: MAX_IMAGE_PIXELS / 1_000_000 }),
  );

const tooManyFrames = (field: string) =>
  invalidField(
    field,
    msg('core.animationTooLargeMost', {
      maxAnimationFrames: MAX_ANIMATION_FRAMES,
      value: MAX_ANIMATION_PIXELS / 10_000,
      value2: MAX_ANIMATION_PIXELS / 1_000_000,
    }),
  );

export const imageDamaged = (field: string) => invalidField(field, msg('core.imageDamagedCannotRead'));

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
  const sharpLib = await loadSharp();
  let meta: sharp.Metadata;
  try {
    // No pixel limit here: it would refuse a large image as "not an image"; the size is judged below instead.
    meta = await sharpLib(bytes, { animated: true, limitInputPixels: false }).metadata();
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
