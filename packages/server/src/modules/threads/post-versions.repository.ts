import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Edit history (migration 2026112920-post-versions): called inside the transaction of an edit, so the versions and
 * the post never disagree. At a post's first edit, version 1 is what it was (its author, when posted); then the new
 * version is added (the editor, now) and the post's `edited_at` set. Nothing is kept when nothing changed.
 */
export async function recordPostEdit(
  trx: Kysely<DB>,
  edit: {
    post: { id: number; userId: number; createdAt: string; content: string };
    /** The thread's title before and after, for a first post. */
    title?: { before: string; after: string };
    content: string;
    editorId: number;
    at: string;
  },
): Promise<boolean> {
  const { post, title } = edit;
  if (edit.content === post.content && (!title || title.before === title.after)) return false;
  const newest = await trx
    .selectFrom('postVersions')
    .select((eb) => eb.fn.max<number>('version').as('n'))
    .where('postId', '=', post.id)
    .executeTakeFirst();
  let version = Number(newest?.n ?? 0);
  if (version === 0) {
    version = 1;
    await trx
      .insertInto('postVersions')
      .values({
        postId: post.id,
        version,
        userId: post.userId,
        title: title ? title.before : null,
        content: post.content,
        createdAt: post.createdAt,
      })
      .execute();
  }
  await trx
    .insertInto('postVersions')
    .values({
      postId: post.id,
      version: version + 1,
      userId: edit.editorId,
      title: title ? title.after : null,
      content: edit.content,
      createdAt: edit.at,
    })
    .execute();
  await trx.updateTable('posts').set({ editedAt: edit.at }).where('id', '=', post.id).execute();
  return true;
}

/** A post's versions, newest first, with their writers' names. */
export function listPostVersions(db: Kysely<DB>, postId: number) {
  return db
    .selectFrom('postVersions')
    .leftJoin('users', 'users.id', 'postVersions.userId')
    .select([
      'postVersions.version',
      'postVersions.userId',
      'users.nickname',
      'users.avatar',
      'postVersions.title',
      'postVersions.content',
      'postVersions.hidden',
      'postVersions.createdAt',
    ])
    .where('postVersions.postId', '=', postId)
    .orderBy('postVersions.version', 'desc')
    .execute();
}

/** Hides a version from everyone but administrators (or shows it again); false when there is no such version. */
export async function setPostVersionHidden(
  db: Kysely<DB>,
  postId: number,
  version: number,
  hidden: boolean,
  by: number,
): Promise<boolean> {
  const res = await db
    .updateTable('postVersions')
    .set({ hidden: hidden ? 1 : 0, hiddenBy: hidden ? by : null })
    .where('postId', '=', postId)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
