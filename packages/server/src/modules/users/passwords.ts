import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { Code } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB, User } from '../../db/schema.js';
import { AppError, invalidField } from '../../core/errors.js';
import { loginAccountKey, type LoginThrottle } from '../../core/rate-limit.js';
import { now } from '../../core/time.js';
import { revokeOtherTokens } from '../../access/tokens.repository.js';
import { deleteGeneratedPassword, stillGeneratedPassword } from './generated-passwords.repository.js';
import { findUserById, updateUser } from './users.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * Passwords as account data (sign-in, the mailed reset link, the member's own change, the wallet's pay password, the
 * seed): beside the users' repository, so that those modules need not import sign-in and registration.
 */

export const hashPassword = (password: string) => hash(password);

/**
 * A bcrypt hash another forum left (Discuz! Q stores PHP's password_hash, `$2y$10$…`; `$2a$` and `$2b$` are the same
 * algorithm). It verifies, and the caller then replaces it with our own hash (`hashPassword`) in the same request.
 */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

export const isLegacyHash = (stored: string): boolean => BCRYPT.test(stored);

let dummyHash: Promise<string> | undefined;

/**
 * Whether `given` is the password behind the stored hash: ours (argon2) or a legacy bcrypt one. An empty stored hash
 * (an account that signs in by SMS or WeChat, or none at all: pass '') or one we cannot read never verifies, after
 * the work of a real check so that the answer's timing does not tell.
 */
export async function verifyPassword(stored: string, given: string): Promise<boolean> {
  if (isLegacyHash(stored)) return bcrypt.compare(given, stored);
  if (stored.startsWith('$argon2')) return verify(stored, given).catch(() => false);
  dummyHash ??= hash('luntan-timing-equaliser');
  await verify(await dummyHash, given).catch(() => false);
  return false;
}

/**
 * Replaces a legacy hash just proven right with ours. Only while the stored hash is still that one: a password changed
 * meanwhile stays.
 */
export async function upgradeLegacyPassword(db: Kysely<DB>, user: User, password: string): Promise<void> {
  if (!isLegacyHash(user.passwordHash)) return;
  await db
    .updateTable('users')
    .set({ passwordHash: await hashPassword(password), updatedAt: now() })
    .where('id', '=', user.id)
    .where('passwordHash', '=', user.passwordHash)
    .execute();
}

/** The login's throttle (ctx.limits.login) and the request's address, for a password checked outside username.login. */
export interface PasswordThrottle {
  limiter: LoginThrottle;
  ip: string;
}

/**
 * Whether `given` is the signed-in member's login password (a change of it, the pay password's confirmation),
 * counted as username.login counts its attempts, in the same throttle and under the same account key (the user id):
 * -4029 while the account must wait, a wrong password a failure (from the sixth in a row each further attempt waits
 * longer), a right one clears the count. Without it a session would be a way to guess the password without limit.
 */
export async function checkOwnPassword(
  throttle: PasswordThrottle,
  user: Pick<User, 'id' | 'passwordHash'>,
  given: string,
): Promise<boolean> {
  const account = loginAccountKey(user.id);
  await throttle.limiter.assertAllowed(throttle.ip, [account]);
  const right = await verifyPassword(user.passwordHash, given);
  if (right) await throttle.limiter.recordSuccess(account, throttle.ip);
  else await throttle.limiter.recordFailure(throttle.ip, [account]);
  return right;
}

/** Sets a new password (already hashed) and signs the member out of every session: a reset by a mailed link. */
export async function replacePassword(
  trx: Kysely<DB>,
  userId: number,
  passwordHash: string,
  at: string,
): Promise<void> {
  await updateUser(trx, userId, { passwordHash, updatedAt: at });
  await deleteGeneratedPassword(trx, userId);
  await revokeOtherTokens(trx, userId, null, at);
}

/**
 * Changes a password after checking the current one (-4001 on field password when missing, -7062 when wrong), and
 * signs the user out of every other session. An account still on the random password an outside sign-in gave it
 * (OpenID Connect, WeChat) sets its first password without one: its owner never knew it.
 */
export async function changePassword(
  db: Kysely<DB>,
  throttle: PasswordThrottle,
  userId: number,
  keepTokenId: number | null,
  current: string,
  next: string,
): Promise<void> {
  const user = await findUserById(db, userId);
  const generated = user !== undefined && (await stillGeneratedPassword(db, userId));
  if (!generated && !current) {
    throw invalidField('password', msg('users.enterCurrentPasswordSet'));
  }
  if (!user || (!generated && !(await checkOwnPassword(throttle, user, current)))) {
    throw new AppError(Code.LOGIN_FAILED, msg('users.currentPasswordWrong'));
  }
  const passwordHash = await hashPassword(next);
  await db.transaction().execute(async (trx) => {
    const at = now();
    await updateUser(trx, userId, { passwordHash, updatedAt: at });
    await deleteGeneratedPassword(trx, userId);
    await revokeOtherTokens(trx, userId, keepTokenId, at);
  });
}
