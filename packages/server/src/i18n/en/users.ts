import type { Texts } from '../texts.js';
import type { users as zh } from '../zh/users.js';

/** The server's English messages: users (the keys of zh/users.ts). */
export const users = {
  enterCurrentPasswordSet: 'Enter your current password to set a new one',
  currentPasswordWrong: 'The current password is wrong',
  usernameCannotChangedOnly: 'Your username cannot be changed: only a username the site made up can be changed, once',
} as const satisfies Texts<typeof zh>;
