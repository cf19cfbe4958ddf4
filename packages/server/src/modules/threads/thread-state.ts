import { Code } from '@luntan/shared';
import { sql, type Kysely, type Updateable } from 'kysely';
import { AppError } from '../../core/errors.js';
import type { DialectName } from '../../db/database.js';
import type { DB, Thread, ThreadsTable } from '../../db/schema.js';
import { bumpCategoryThreadCount } from '../categories/index.js';
import { bumpUserCounter, updateThreadIf } from './threads.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * A thread's standing (deleted, draft, held, category) and the counters that follow it, and the row lock every write
 * to a thread takes first: what threads, posts and review change in their transactions.
 */

/** Whether a thread counts in its category's and its author's thread counters. */
const isCounted = (t: Pick<Thread, 'deletedAt' | 'isDraft' | 'isApproved'>) =>
  t.deletedAt === null && t.isDraft === 0 && t.isApproved === 1;

/**
 * On PostgreSQL, every write transaction on a thread takes its row first, so writes to one thread (and its posts)
 * queue up in one order and cannot deadlock. SQLite runs one write transaction at a time anyway.
 */
export async function lockThread(trx: Kysely<DB>, dialect: DialectName, id: number): Promise<void> {
  if (dialect === 'postgres') await sql`select id from threads where id = ${id} for no key update`.execute(trx);
}

const changedMeanwhile = () => new AppError(Code.RESOURCE_IN_USE, msg('threads.threadChangedMeanwhileTry'));

/**
 * Changes the fields that decide what a thread counts for (deleted, draft, category) when the thread is still as
 * read, and moves the category and author counters to match, in the caller's transaction.
 */
export async function changeThreadState(
  trx: Kysely<DB>,
  t: Thread,
  changes: Updateable<ThreadsTable>,
): Promise<Thread> {
  const next = { ...t, ...changes } as Thread;
  const done = await updateThreadIf(trx, t.id, changes, {
    deleted: t.deletedAt !== null,
    isDraft: t.isDraft,
    categoryId: t.categoryId,
  });
  if (!done) throw changedMeanwhile();
  const moves = new Map<number, number>();
  if (isCounted(t)) moves.set(t.categoryId, (moves.get(t.categoryId) ?? 0) - 1);
  if (isCounted(next)) moves.set(next.categoryId, (moves.get(next.categoryId) ?? 0) + 1);
  // Ascending ids: two moves in opposite directions take the rows in the same order.
  for (const [categoryId, delta] of [...moves].sort((a, b) => a[0] - b[0])) {
    if (delta !== 0) await bumpCategoryThreadCount(trx, categoryId, delta);
  }
  // An anonymous thread counts in no one's thread count (anonymous.ts).
  const userDelta = t.isAnonymous === 1 ? 0 : Number(isCounted(next)) - Number(isCounted(t));
  if (userDelta !== 0) await bumpUserCounter(trx, t.userId, 'threadCount', userDelta);
  return next;
}
