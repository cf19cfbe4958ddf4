import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, SigninField, SigninFieldsTable, UserSigninField, UserSigninFieldsTable } from '../../db/schema.js';

export function listFields(db: Kysely<DB>, onlyEnabled: boolean): Promise<SigninField[]> {
  let q = db.selectFrom('signinFields').selectAll();
  if (onlyEnabled) q = q.where('status', '=', 1);
  return q.orderBy('sort').orderBy('id').execute();
}

export function findField(db: Kysely<DB>, id: number): Promise<SigninField | undefined> {
  return db.selectFrom('signinFields').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertField(db: Kysely<DB>, values: Insertable<SigninFieldsTable>): Promise<number> {
  const row = await db.insertInto('signinFields').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateField(db: Kysely<DB>, id: number, changes: Updateable<SigninFieldsTable>): Promise<void> {
  await db.updateTable('signinFields').set(changes).where('id', '=', id).execute();
}

/** A user's answers that count (not discarded), in the order of their fields. */
export function liveAnswers(db: Kysely<DB>, userId: number): Promise<UserSigninField[]> {
  return db
    .selectFrom('userSigninFields')
    .selectAll('userSigninFields')
    .where('userSigninFields.userId', '=', userId)
    .where('userSigninFields.status', '!=', 0)
    .orderBy('userSigninFields.fieldId')
    .orderBy('userSigninFields.id')
    .execute();
}

export function findAnswer(db: Kysely<DB>, id: number): Promise<UserSigninField | undefined> {
  return db.selectFrom('userSigninFields').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Discards the user's earlier answers to these fields, then stores the new ones (pending). */
export async function replaceAnswers(
  db: Kysely<DB>,
  userId: number,
  rows: Insertable<UserSigninFieldsTable>[],
  at: string,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .updateTable('userSigninFields')
    .set({ status: 0, updatedAt: at })
    .where('userId', '=', userId)
    .where(
      'fieldId',
      'in',
      rows.map((r) => r.fieldId),
    )
    .where('status', '!=', 0)
    .execute();
  await db.insertInto('userSigninFields').values(rows).execute();
}

export async function updateAnswer(
  db: Kysely<DB>,
  id: number,
  changes: Updateable<UserSigninFieldsTable>,
): Promise<void> {
  await db.updateTable('userSigninFields').set(changes).where('id', '=', id).execute();
}
