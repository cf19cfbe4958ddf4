import type { Texts } from '../texts.js';
import type { mail as zh } from '../zh/mail.js';

/** The server's English messages: mail (the keys of zh/mail.ts). */
export const mail = {
  siteDoesNotSend: 'This site does not send mail: email is switched off',
  emailAddressAlreadyUsed: 'This email address is already used by another account',
  linkExpiredAlreadyUsed: 'This link has expired or was already used: please ask for a new one',
  alreadyEmailAddress: 'This is already your email address',
  emailCouldNotSent: 'The email could not be sent: please try again later',
} as const satisfies Texts<typeof zh>;
