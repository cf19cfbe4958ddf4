import type { Texts } from '../texts.js';
import type { attachments as zh } from '../zh/attachments.js';

/** The server's English messages: attachments (the keys of zh/attachments.ts). */
export const attachments = {
  image: 'Image',
  chooseImageUpload: 'Choose an image to upload',
  imageNotFound: 'image not found',
  imageEmpty: 'The image is empty',
  onlyJpegPngGif: 'Only JPEG, PNG, GIF and WebP images are accepted',
} as const satisfies Texts<typeof zh>;
