import type { Insertable, Kysely } from 'kysely';
import type { DB, ReportsTable } from '../../db/schema.js';

/** All SQL of reports: filing one, the back office's list and its decisions. */

export async function insertReport(db: Kysely<DB>, values: Insertable<ReportsTable>): Promise<number> {
  const row = await db.insertInto('reports').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findReportedThread(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('threads')
    .select(['id', 'categoryId', 'userId', 'isDraft', 'isApproved', 'deletedAt', 'title'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findReportedPost(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('posts')
    .select(['id', 'threadId', 'userId', 'isFirst', 'isApproved', 'deletedAt'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findReportedUser(db: Kysely<DB>, id: number) {
  return db.selectFrom('users').select(['id', 'status', 'nickname']).where('id', '=', id).executeTakeFirst();
}

export interface ReportFilter {
  status: number;
  type?: number | undefined;
}

export async function countReports(db: Kysely<DB>, f: ReportFilter): Promise<number> {
  let q = db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', f.status);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export function listReports(db: Kysely<DB>, f: ReportFilter, offset: number, limit: number) {
  let q = db.selectFrom('reports').selectAll().where('status', '=', f.status);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  return q.orderBy('id', 'desc').offset(offset).limit(limit).execute();
}

export function usersByIds(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'avatar'])
    .where('id', 'in', [...ids])
    .execute();
}

export function threadsByIds(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('threads')
    .leftJoin('posts', 'posts.id', 'threads.firstPostId')
    .select(['threads.id', 'threads.title', 'threads.deletedAt', 'posts.contentHtml'])
    .where('threads.id', 'in', [...ids])
    .execute();
}

export function postsByIds(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('posts')
    .select(['id', 'contentHtml', 'deletedAt'])
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * Decides the open reports among `ids` (a conditional update: a report already decided, by this call's twin or
 * anyone, is left alone) and answers those it decided.
 */
export function decideReports(
  db: Kysely<DB>,
  ids: readonly number[],
  change: { status: number; handlerId: number; handledAt: string; remark: string },
) {
  return db
    .updateTable('reports')
    .set(change)
    .where('id', 'in', [...ids])
    .where('status', '=', 0)
    .returning(['id', 'userId', 'type', 'targetId', 'threadId', 'postId', 'reportedUserId', 'status', 'remark'])
    .execute();
}
