import type { Texts } from '../texts.js';
import type { people as zh } from '../zh/people.js';

/** The server's English messages: people (the keys of zh/people.ts). */
export const people = {
  noSuchUser: 'No such user',
  youCannotBlockYourself: 'You cannot block yourself',
} as const satisfies Texts<typeof zh>;
