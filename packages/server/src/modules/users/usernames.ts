import { Code } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError, fieldError } from '../../core/errors.js';
import { now } from '../../core/time.js';
import { isUniqueViolation } from '../../db/errors.js';
import { screenText, wordRefused, type StopWordCache } from '../stop-words/index.js';
import { findUserById, findUserByUsername, replaceGeneratedUsername } from './users.repository.js';
import { msg } from '../../i18n/index.js';

/* Usernames as account data: whether one is taken, and the one-time choice of a username the site made up. */

export const usernameTaken = () => new AppError(Code.USERNAME_EXISTS);

export async function isUsernameTaken(db: Kysely<DB>, username: string): Promise<boolean> {
  return (await findUserByUsername(db, username)) !== undefined;
}

const usernameFixed = () => fieldError(Code.UNAUTHORIZED, 'username', msg('users.usernameCannotChangedOnly'));

/**
 * update.user `username`, before anything is written: a member whose username the site made up may choose their
 * own, once, under the registration's rules (newUsernameSchema checked it; here the username stop words and
 * uniqueness whatever the case, -7042). -4002 once it was chosen, or when it never was generated. Answers the name.
 */
export async function checkUsernameChoice(
  db: Kysely<DB>,
  cache: StopWordCache,
  userId: number,
  username: string,
): Promise<string> {
  const user = await findUserById(db, userId);
  if (!user || user.usernameGenerated !== 1) throw usernameFixed();
  const name = await screenText(db, cache, 'username', username, 'username');
  if (name.replacedWord !== null) throw wordRefused('username', name.replacedWord);
  const owner = await findUserByUsername(db, username);
  if (owner && owner.id !== userId) throw usernameTaken();
  return username;
}

/** Writes a username checked by checkUsernameChoice; the unique index and the flag decide a race. */
export async function applyUsernameChoice(db: Kysely<DB>, userId: number, username: string): Promise<void> {
  let replaced: boolean;
  try {
    replaced = await replaceGeneratedUsername(db, userId, username, now());
  } catch (err) {
    if (isUniqueViolation(err)) throw usernameTaken();
    throw err;
  }
  if (!replaced) throw usernameFixed();
}
