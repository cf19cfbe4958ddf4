import type { Kysely } from 'kysely';
import type { DB, NewUser, User, UserUpdate } from '../../db/schema.js';

export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export function findUserById(db: Kysely<DB>, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByUsername(db: Kysely<DB>, username: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('usernameNormalized', '=', normalizeUsername(username))
    .executeTakeFirst();
}

export function findUserByMobile(db: Kysely<DB>, mobile: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('mobile', '=', mobile).executeTakeFirst();
}

/** Replaces a generated username with a chosen one, once: false when it was no longer the generated one. */
export async function replaceGeneratedUsername(
  db: Kysely<DB>,
  id: number,
  username: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ username, usernameNormalized: normalizeUsername(username), usernameGenerated: 0, updatedAt: at })
    .where('id', '=', id)
    .where('usernameGenerated', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertUser(db: Kysely<DB>, user: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Kysely<DB>, id: number, changes: UserUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}
