import type { NotificationType } from '@luntan/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, Notification, NotificationsTable } from '../../db/schema.js';
import { unreadMessagesRow } from '../dialogs/index.js';

/** All SQL of notifications: the notices themselves, and the read-only look-ups that write their text. */

export async function insertNotification(db: Kysely<DB>, values: Insertable<NotificationsTable>): Promise<number> {
  const row = await db.insertInto('notifications').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateNotification(
  db: Kysely<DB>,
  id: number,
  changes: Updateable<NotificationsTable>,
): Promise<void> {
  await db.updateTable('notifications').set(changes).where('id', '=', id).execute();
}

/** The newest unread notice of a subject made since `since` (the one a like or follow merges into). */
export function findOpenSubjectNotice(
  db: Kysely<DB>,
  userId: number,
  subjectKey: string,
  since: string,
): Promise<Notification | undefined> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('userId', '=', userId)
    .where('subjectKey', '=', subjectKey)
    .where('readAt', 'is', null)
    .where('createdAt', '>=', since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Whether the user was ever told about the subject (and kept the notice). */
export async function hasSubjectNotice(db: Kysely<DB>, userId: number, subjectKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('userId', '=', userId)
    .where('subjectKey', '=', subjectKey)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

function noticesOf(db: Kysely<DB>, userId: number, types: readonly NotificationType[] | undefined) {
  let q = db.selectFrom('notifications').where('notifications.userId', '=', userId);
  if (types && types.length > 0) q = q.where('notifications.type', 'in', types);
  return q;
}

export async function countNotifications(
  db: Kysely<DB>,
  userId: number,
  types: readonly NotificationType[] | undefined,
): Promise<number> {
  const row = await noticesOf(db, userId, types)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of notices, newest first, with the acting user's name and avatar. */
export function listNotifications(
  db: Kysely<DB>,
  userId: number,
  types: readonly NotificationType[] | undefined,
  offset: number,
  limit: number,
) {
  return noticesOf(db, userId, types)
    .leftJoin('users', 'users.id', 'notifications.fromUserId')
    .selectAll('notifications')
    .select(['users.nickname as fromNickname', 'users.avatar as fromAvatar'])
    .orderBy('notifications.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function markRead(db: Kysely<DB>, userId: number, ids: readonly number[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notifications')
    .set({ readAt: at })
    .where('userId', '=', userId)
    .where('id', 'in', ids)
    .where('readAt', 'is', null)
    .execute();
}

/** Deletes the user's own notices among `ids`; answers how many went. */
export async function deleteNotifications(db: Kysely<DB>, userId: number, ids: readonly number[]): Promise<number> {
  const res = await db
    .deleteFrom('notifications')
    .where('userId', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Unread notifications of a user, counted per message-centre category. */
/**
 * A member's unread notices by category and unread private messages (`dialogs`), in one statement: every page a
 * member opens shows them (the header's badges), and on PostgreSQL a statement's round trip costs more than these
 * counts do (docs/performance.md, "fifteenth part").
 */
export async function countUnreadCounters(
  db: Kysely<DB>,
  userId: number,
): Promise<{ byCategory: Record<string, number>; dialogs: number }> {
  const rows = await db
    .selectFrom('notifications')
    .select([
      // Typed as the messages' row: their `category` is null.
      (eb) => eb.ref('category').$castTo<string | null>().as('category'),
      (eb) => eb.fn.countAll<number | string>().as('n'),
    ])
    .where('userId', '=', userId)
    .where('readAt', 'is', null)
    .groupBy('category')
    .unionAll(unreadMessagesRow(db, userId))
    .execute();
  const byCategory: Record<string, number> = {};
  let dialogs = 0;
  for (const row of rows) {
    if (row.category === null) dialogs = Number(row.n);
    else byCategory[row.category] = Number(row.n);
  }
  return { byCategory, dialogs };
}

// --- What a notice's text is made of (read only) --------------------------------------------------------------------

export function findPerson(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'avatar'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A user's whole row: what the access floor builds their viewer from (whether a notice may quote a thread). */
export function findUserRow(db: Kysely<DB>, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether `userId` blocked `other` (a blocked user's actions tell the blocker nothing). */
export async function hasBlocked(db: Kysely<DB>, userId: number, other: number): Promise<boolean> {
  const row = await db
    .selectFrom('userDenies')
    .select('userId')
    .where('userId', '=', userId)
    .where('denyUserId', '=', other)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A post with what decides whether it is visible and to whom (its thread's standing and category), and its thread's
 * author and title.
 */
export function findPostSubject(db: Kysely<DB>, postId: number) {
  return db
    .selectFrom('posts')
    .innerJoin('threads', 'threads.id', 'posts.threadId')
    .select([
      'posts.id',
      'posts.threadId',
      'posts.userId',
      'posts.replyPostId',
      'posts.replyUserId',
      'posts.commentUserId',
      'posts.isFirst',
      'posts.isComment',
      'posts.isApproved',
      'posts.deletedAt',
      'posts.contentHtml',
      'threads.userId as threadUserId',
      'threads.categoryId as threadCategoryId',
      'threads.isAnonymous as threadIsAnonymous',
      'threads.title as threadTitle',
      'threads.isApproved as threadIsApproved',
      'threads.isDraft as threadIsDraft',
      'threads.deletedAt as threadDeletedAt',
    ])
    .where('posts.id', '=', postId)
    .executeTakeFirst();
}
export type PostSubject = NonNullable<Awaited<ReturnType<typeof findPostSubject>>>;

export function findThreadSubject(db: Kysely<DB>, threadId: number) {
  return db
    .selectFrom('threads')
    .select(['id', 'userId', 'title', 'firstPostId', 'isAnonymous'])
    .where('id', '=', threadId)
    .executeTakeFirst();
}

/** The users a post @mentions (those who blocked its author were never linked, see findMentionTargets). */
export async function mentionedUserIds(db: Kysely<DB>, postId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('postMentions')
    .select('userId')
    .where('postId', '=', postId)
    .orderBy('userId')
    .execute();
  return rows.map((r) => r.userId);
}

export async function groupNames(db: Kysely<DB>, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('groups').select('name').where('id', 'in', ids).orderBy('id').execute();
  return rows.map((r) => r.name);
}
