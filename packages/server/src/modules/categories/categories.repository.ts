import type { Insertable, Kysely, Updateable } from 'kysely';
import type { CategoriesTable, Category, DB } from '../../db/schema.js';

export function listCategories(db: Kysely<DB>): Promise<Category[]> {
  return db.selectFrom('categories').selectAll().orderBy('sort').orderBy('id').execute();
}

export function findCategory(db: Kysely<DB>, id: number): Promise<Category | undefined> {
  return db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertCategory(db: Kysely<DB>, values: Insertable<CategoriesTable>): Promise<number> {
  const row = await db.insertInto('categories').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCategory(db: Kysely<DB>, id: number, changes: Updateable<CategoriesTable>): Promise<void> {
  await db.updateTable('categories').set(changes).where('id', '=', id).execute();
}

export async function deleteCategory(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('categories').where('id', '=', id).execute();
}

/** Whether any thread (deleted and drafts included) or sub-category still points at the category. */
export async function categoryInUse(db: Kysely<DB>, id: number): Promise<boolean> {
  const thread = await db.selectFrom('threads').select('id').where('categoryId', '=', id).limit(1).executeTakeFirst();
  if (thread) return true;
  const child = await db.selectFrom('categories').select('id').where('parentId', '=', id).limit(1).executeTakeFirst();
  return child !== undefined;
}

/** Moves a category's thread counter; called in the transaction that changes what it counts. */
export async function bumpCategoryThreadCount(db: Kysely<DB>, id: number, delta: number): Promise<void> {
  await db
    .updateTable('categories')
    .set((eb) => ({ threadCount: eb('threadCount', '+', delta) }))
    .where('id', '=', id)
    .execute();
}

/** Moves every thread of a category (drafts and deleted ones too) to another, with its thread count. */
export async function moveCategoryThreads(
  db: Kysely<DB>,
  from: number,
  to: number,
  threadCount: number,
): Promise<void> {
  await db.updateTable('threads').set({ categoryId: to }).where('categoryId', '=', from).execute();
  await bumpCategoryThreadCount(db, to, threadCount);
  await db.updateTable('categories').set({ threadCount: 0 }).where('id', '=', from).execute();
}
