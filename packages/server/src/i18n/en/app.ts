import type { Texts } from '../texts.js';
import type { app as zh } from '../zh/app.js';

/** The server's English messages: app (the keys of zh/app.ts). */
export const app = {
  noSuchApi: 'no such API',
  sentTooLarge: 'What was sent is too large',
  contentTypeNotSupported: 'This content type is not supported',
  sentNotValidJson: 'What was sent is not valid JSON',
  requestNotRightForm: 'The request is not in the right form',
} as const satisfies Texts<typeof zh>;
