import { hash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { revokeOtherTokens } from '../../access/tokens.repository.js';
import { deleteGeneratedPassword } from './generated-passwords.repository.js';
import { updateUser } from '../users/users.repository.js';

/*
 * Passwords as other modules use them (the mailed reset link, the wallet's pay password, the seed): apart from
 * auth.service.ts so that those modules need not import sign-in and registration, which import them back.
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
