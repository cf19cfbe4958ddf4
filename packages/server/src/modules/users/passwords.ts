import { hash, verify } from '@node-rs/argon2';
import { Code } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError, invalidField } from '../../core/errors.js';
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
  if (!user || (!generated && !(await verify(user.passwordHash, current)))) {
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
