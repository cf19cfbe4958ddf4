import type { Texts } from '../texts.js';
import type { oauth as zh } from '../zh/oauth.js';

/** The server's English messages: oauth (the keys of zh/oauth.ts). */
export const oauth = {
  accountNotLinked: 'This account is not linked',
  onlyWaySignSet: 'This is your only way to sign in: set a password or link another account before unlinking it',
  noSuchSignProvider: 'No such sign-in provider',
  clientSecretRequired: 'The client secret is required',
  slugTaken: 'The slug {{slug}} is taken',
  accountsLinkedProviderSo:
    '{{linked}} accounts are linked to this provider, so it cannot be deleted; switch it off instead',
} as const satisfies Texts<typeof zh>;
