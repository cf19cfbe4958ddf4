import type { Texts } from '../texts.js';
import type { account as zh } from '../zh/account.js';

/** The server's English messages: account (the keys of zh/account.ts). */
export const account = {
  avatar: 'Avatar',
  backgroundImage: 'Background image',
  chooseImageUpload: 'Choose an image to upload',
  onlyJpegPngGif: 'Only JPEG, PNG, GIF and WebP images are accepted',
} as const satisfies Texts<typeof zh>;
