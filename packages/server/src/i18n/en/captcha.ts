import type { Texts } from '../texts.js';
import type { captcha as zh } from '../zh/captcha.js';

/** The server's English messages: captcha (the keys of zh/captcha.ts). */
export const captcha = {
  completeCaptchaFirst: 'Please complete the captcha first',
  captchaCheckFailedTry: 'The captcha check failed: please try again',
} as const satisfies Texts<typeof zh>;
