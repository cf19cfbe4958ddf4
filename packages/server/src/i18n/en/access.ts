import type { Texts } from '../texts.js';
import type { access as zh } from '../zh/access.js';

/** The server's English messages: access (the keys of zh/access.ts). */
export const access = {
  payJoiningFeeFirst: 'Please pay the joining fee first',
  apiKeyReadOnly: 'This API key may only read, not write',
  apiKeyNotAdmin: 'This API key may not reach the back office',
  apiKeyNoIdentity:
    'An API key may not sign in, register, link or unlink accounts, or change a password, pay password, mobile number or email address',
} as const satisfies Texts<typeof zh>;
