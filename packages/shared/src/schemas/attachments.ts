import { z } from 'zod';

/** The family's attachment types (its attachments.type): 0 a file, 1 an image, 2 audio, 3 video. */
export const AttachmentType = { FILE: 0, IMAGE: 1, AUDIO: 2, VIDEO: 3 } as const;
export type AttachmentTypeValue = (typeof AttachmentType)[keyof typeof AttachmentType];

/** The `type` field of the upload form: a name (`image`, `file`, `audio`, `video`) or the family's number. */
export const attachmentUploadType = z
  .enum(['image', '1', 'file', '0', 'audio', '2', 'video', '3'])
  .default('image')
  .transform((t): AttachmentTypeValue => {
    switch (t) {
      case 'file':
      case '0':
        return AttachmentType.FILE;
      case 'audio':
      case '2':
        return AttachmentType.AUDIO;
      case 'video':
      case '3':
        return AttachmentType.VIDEO;
      default:
        return AttachmentType.IMAGE;
    }
  });

/**
 * The image-URL query form (GET /api/v3/attachments/<fileKey>.<ext>?level=&width=&fps=), the spec's compression
 * parameters made into a URL:
 * - `level`: the spec's compression index. 100 gives the 500x500 thumbnail; 1 to 99 set the quality to 100 - level
 *   (the spec's levels lie between 10 and 70: quality 90 to 30, lower for larger indices); 0 or none, quality 82.
 * - `width`: the display width in pixels, rounded up to one of IMAGE_WIDTHS (never enlarged).
 * - `fps`: for an animated GIF, the frame rate to keep (the spec uses 5, or 10 on screens 1080 px wide or more).
 * WebP is answered when the request's Accept header allows it (`Vary: Accept`).
 */
export const IMAGE_THUMBNAIL_LEVEL = 100;
export const IMAGE_THUMBNAIL_SIZE = 500;
export const IMAGE_WIDTHS = [240, 480, 750, 1080, 1440, 1920] as const;
export const IMAGE_DEFAULT_QUALITY = 82;

export const imageQuery = z.object({
  level: z.coerce.number().int().min(0).max(100).optional(),
  width: z.coerce.number().int().min(1).max(10_000).optional(),
  fps: z.coerce.number().int().min(1).max(50).optional(),
});
export type ImageQuery = z.infer<typeof imageQuery>;

/**
 * The spec's quality index for a screen width (breakpoints above 667 px and at 1080 px): wide screens get the best
 * quality (index 10: 90), middle ones 30 (quality 70), phones, on metered data and with dense pixels that hide the
 * loss, 50 (quality 50).
 */
export function imageLevelForScreen(screenWidth: number): number {
  if (screenWidth >= 1080) return 10;
  if (screenWidth > 667) return 30;
  return 50;
}

/** The spec's GIF frame rate: 5, or 10 at 1080 px or wider. */
export function gifFrameRateForScreen(screenWidth: number): number {
  return screenWidth >= 1080 ? 10 : 5;
}

/** Builds the URL of an attachment image as the spec's client would ask for it. */
export function compressedImageUrl(
  url: string,
  options: { screenWidth: number; displayWidth?: number; thumbnail?: boolean },
): string {
  const isGif = /\.gif(\?|$)/i.test(url);
  const params = new URLSearchParams();
  if (options.thumbnail) params.set('level', String(IMAGE_THUMBNAIL_LEVEL));
  else if (isGif) params.set('fps', String(gifFrameRateForScreen(options.screenWidth)));
  else params.set('level', String(imageLevelForScreen(options.screenWidth)));
  if (options.displayWidth && !options.thumbnail) params.set('width', String(Math.round(options.displayWidth)));
  return `${url}${url.includes('?') ? '&' : '?'}${params.toString()}`;
}

/** One stored size of an image. */
export interface ImageSize {
  name: 'original' | 'large' | 'medium' | 'thumb';
  width: number;
  height: number;
  url: string;
}

/** What POST /api/v3/attachments answers. */
export interface AttachmentItem {
  id: number;
  type: number;
  fileKey: string;
  fileName: string;
  format: string;
  fileSize: number;
  width: number;
  height: number;
  isAnimated: boolean;
  /** The image URL to put in Markdown: it takes the query form above and answers WebP where accepted. */
  url: string;
  /** The 500x500 thumbnail (the same as url + ?level=100). */
  thumbUrl: string;
  /** The stored files, served as they are from /uploads/ with a year's cache. */
  sizes: ImageSize[];
}

/** What POST /api/v3/attachments answers for a file (type 0), audio (2) or video (3). */
export interface FileAttachmentItem {
  id: number;
  type: number;
  fileName: string;
  /** The extension, lowercase ("pdf", "mp4"). */
  format: string;
  fileSize: number;
  /** Seconds (audio and video, when the uploader's browser read it); 0 when unknown. */
  duration: number;
}

/** GET /api/v3/attachment.share's answer: the file's download address (from the site's root), as docs[].url. */
export interface AttachmentShareData {
  url: string;
}
