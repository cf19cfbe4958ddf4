import type { Texts } from '../texts.js';
import type { core as zh } from '../zh/core.js';

/** The server's English messages: core (the keys of zh/core.ts). */
export const core = {
  sentNotValidUtf: 'What was sent is not valid UTF-8 text',
  sentNestedTooDeeply: 'What was sent is nested too deeply: at most {{maxJsonDepth}} levels',
  sentCutShortConnection:
    'What was sent was cut short: the connection ended before the whole body arrived. Please send it again',
  imageTooLargeMost: 'The image is too large: at most {{value2}} megapixels. Make it smaller and try again',
  animationTooLargeMost:
    'The animation is too large: at most {{maxAnimationFrames}} frames and {{value2}} megapixels in all',
  imageDamagedCannotRead: 'The image is damaged and cannot be read: please choose another one',
  sendMultipartFormData: 'Send the {{labelEn}} as multipart/form-data',
  most: 'The {{labelEn}} must be at most {{sizeText}}',
  uploadCutShortMalformed: 'The {{labelEn}} upload was cut short or is malformed: please upload it again',
  tooManyAttemptsWait: 'Too many attempts: please wait {{seconds}} seconds and try again',
  requestFromAnotherSite: 'A request from another site was refused',
} as const satisfies Texts<typeof zh>;
