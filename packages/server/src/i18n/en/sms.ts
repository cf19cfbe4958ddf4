import type { Texts } from '../texts.js';
import type { sms as zh } from '../zh/sms.js';

/** The server's English messages: sms (the keys of zh/sms.ts). */
export const sms = {
  numberAlreadyBoundAnother: 'This number is already bound to another account',
  youAlreadyBoundNumber: 'You already have a bound number: change it instead',
  youNoBoundNumber: 'You have no bound number yet',
  notNumberBoundAccount: 'This is not the number bound to your account',
  newNumberCurrentOne: 'The new number is the current one',
  smsCouldNotSent: 'The SMS could not be sent: please try again later',
  noAccountNumberSite: 'No account has this number, and the site takes no new members',
  codeExpiredNoLonger: 'The code has expired or is no longer valid: ask for a new one',
  tooManyWrongAnswers: 'Too many wrong answers: the code is void, ask for a new one',
  wrongCodeMoreTries: 'Wrong code: {{left}} more tries',
  codeAlreadyUsed: 'The code was already used',
  verifyCurrentNumberFirst: 'Verify your current number first (it counts for 10 minutes)',
  codeAlreadyUsed2: 'The code was already used',
} as const satisfies Texts<typeof zh>;
