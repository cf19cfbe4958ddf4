import type { Texts } from '../texts.js';
import type { auth as zh } from '../zh/auth.js';

/** The server's English messages: auth (the keys of zh/auth.ts). */
export const auth = {
  readAcceptRegistrationAgreement: 'Please read and accept the registration agreement and the privacy policy',
  registrationClosed: 'registration is closed',
} as const satisfies Texts<typeof zh>;
