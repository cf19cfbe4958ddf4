import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ThreadRow } from '../threads/index.js';

export interface QueueFilter {
  isApproved: number;
  categoryId?: number | undefined;
}

function heldThreads(db: Kysely<DB>, f: QueueFilter) {
  let q = db
    .selectFrom('threads')
    .where('threads.isApproved', '=', f.isApproved)
    // The same term as the partial review index, so both databases can use it.
    .where('threads.isApproved', '<>', sql.lit(1))
    .where('threads.deletedAt', 'is', null)
    .where('threads.isDraft', '=', 0);
  if (f.categoryId !== undefined) q = q.where('threads.categoryId', '=', f.categoryId);
  return q;
}

export async function countHeldThreads(db: Kysely<DB>, f: QueueFilter): Promise<number> {
  const row = await heldThreads(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listHeldThreads(db: Kysely<DB>, f: QueueFilter, offset: number, limit: number) {
  return heldThreads(db, f)
    .innerJoin('users', 'users.id', 'threads.userId')
    .innerJoin('categories', 'categories.id', 'threads.categoryId')
    .leftJoin('posts', 'posts.id', 'threads.firstPostId')
    .selectAll('threads')
    .select([
      'users.nickname as authorNickname',
      'users.avatar as authorAvatar',
      'categories.name as categoryName',
      'posts.content as firstContent',
      'posts.contentHtml as firstContentHtml',
    ])
    .orderBy('threads.createdAt', 'desc')
    .orderBy('threads.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute() as Promise<(ThreadRow & { firstContent: string | null; firstContentHtml: string | null })[]>;
}

function heldPosts(db: Kysely<DB>, f: QueueFilter) {
  let q = db
    .selectFrom('posts')
    .innerJoin('threads', 'threads.id', 'posts.threadId')
    .where('posts.isApproved', '=', f.isApproved)
    .where('posts.isApproved', '<>', sql.lit(1))
    .where('posts.deletedAt', 'is', null)
    .where('posts.isFirst', '=', 0)
    .where('threads.deletedAt', 'is', null);
  if (f.categoryId !== undefined) q = q.where('threads.categoryId', '=', f.categoryId);
  return q;
}

export async function countHeldPosts(db: Kysely<DB>, f: QueueFilter): Promise<number> {
  const row = await heldPosts(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listHeldPosts(db: Kysely<DB>, f: QueueFilter, offset: number, limit: number) {
  return heldPosts(db, f)
    .innerJoin('users', 'users.id', 'posts.userId')
    .select([
      'posts.id',
      'posts.threadId',
      'threads.title as threadTitle',
      'posts.userId',
      'users.nickname',
      'users.avatar',
      'posts.content',
      'posts.contentHtml',
      'posts.isComment',
      'posts.replyPostId',
      'posts.isApproved',
      'posts.createdAt',
    ])
    .orderBy('posts.createdAt', 'desc')
    .orderBy('posts.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}
