import {
  COMMENTS_PREVIEW,
  type Page,
  type PostCreateBody,
  type PostItem,
  type PostPosition,
  type PostsListQuery,
  type PostUpdateBody,
  type UserSummary,
  pageOf,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { pageTotal } from '../../core/page-total.js';
import { invalidField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, Post, Thread } from '../../db/schema.js';
import { linkAttachments } from '../attachments/index.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import {
  assertMayPublish,
  assertCanReadThread,
  canEditPost,
  canHidePost,
  denied,
  isPublished,
  postAbility,
  postExistsFor,
  postNotFound,
  type ThreadState,
} from '../threads/index.js';
import { authorSeenBy, topicCreator, type AnonymousState } from '../threads/index.js';
import { bumpThreadCounter, bumpUserCounter, findThread, likedPostIds } from '../threads/index.js';
import { changeThreadState, lockThread } from '../threads/index.js';
import { firstPostContentFor } from '../threads/index.js';
import { screenText } from '../stop-words/index.js';
import { renderContent, replaceLiterally, summarize } from '../content/index.js';
import { topicsNamedIn } from '../topics/index.js';
import {
  addLike,
  bumpPostCounter,
  countComments,
  countReplies,
  findPostRow,
  firstCommentsOf,
  listComments,
  listReplies,
  removeLike,
  userSummaries,
  visiblePosition,
  type PostRow,
} from './posts.repository.js';
import { findPost, insertPost, recordPostEdit, replaceMentions, updatePostIf } from '../threads/index.js';
import { msg } from '../../i18n/index.js';

const acting = (viewer: ViewerContext, key: string, categoryId: number) =>
  viewer.user !== null && can(viewer, key, categoryId);

/** A post's author; of an anonymous thread's first post, as the viewer may see them (threads/anonymous.ts). */
function byline(viewer: ViewerContext, thread: AnonymousState, p: PostRow): UserSummary {
  const real = { userId: p.userId, nickname: p.authorNickname, avatar: p.authorAvatar };
  return p.isFirst === 1 ? authorSeenBy(viewer, thread, real) : real;
}

function presentPost(
  viewer: ViewerContext,
  thread: ThreadState & AnonymousState,
  p: PostRow,
  liked: Set<number>,
  users: Map<number, UserSummary>,
  comments: PostItem[] = [],
): PostItem {
  return {
    id: p.id,
    threadId: p.threadId,
    user: byline(viewer, thread, p),
    content: { text: p.content, html: p.contentHtml },
    replyPostId: p.replyPostId,
    replyUserId: p.replyUserId,
    commentPostId: p.commentPostId,
    commentUser: p.commentUserId ? (users.get(p.commentUserId) ?? null) : null,
    likeCount: p.likeCount,
    replyCount: p.replyCount,
    isFirst: p.isFirst === 1,
    isComment: p.isComment === 1,
    isApproved: p.isApproved === 1,
    isLiked: liked.has(p.id),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    editedAt: p.editedAt,
    ability: postAbility(viewer, thread, p),
    comments,
  };
}

/** Presents posts with the viewer's likes and the authors that comments answer (two queries for the lot). */
async function presentPosts(
  db: Kysely<DB>,
  viewer: ViewerContext,
  thread: ThreadState & AnonymousState,
  rows: PostRow[],
  commentsByReply = new Map<number, PostRow[]>(),
): Promise<PostItem[]> {
  const all = [...rows, ...[...commentsByReply.values()].flat()];
  // Rows of the viewer's lists came with the viewer's likes (posts.repository.ts, visiblePosts).
  const likesRead = all.every((p) => p.viewerLiked !== undefined);
  const [liked, users] = await Promise.all([
    likesRead
      ? new Set(all.filter((p) => Boolean(p.viewerLiked)).map((p) => p.id))
      : viewer.user
        ? likedPostIds(
            db,
            viewer.user.id,
            all.map((p) => p.id),
          )
        : Promise.resolve(new Set<number>()),
    userSummaries(
      db,
      all.flatMap((p) => (p.commentUserId ? [p.commentUserId] : [])),
    ),
  ]);
  return rows.map((p) =>
    presentPost(
      viewer,
      thread,
      p,
      liked,
      users,
      (commentsByReply.get(p.id) ?? []).map((c) => presentPost(viewer, thread, c, liked, users)),
    ),
  );
}

/** A thread's replies. `reading`: the thread's row already being read (as threadDetail's `reading`). */
export async function listPosts(
  ctx: AppContext,
  viewer: ViewerContext,
  q: PostsListQuery,
  reading: Promise<Thread | undefined> = findThread(ctx.db, q.threadId),
): Promise<Page<PostItem>> {
  const thread = await reading;
  assertCanReadThread(viewer, thread);
  const viewerId = viewer.user?.id ?? null;
  const offset = (q.page - 1) * q.perPage;
  const replies = await listReplies(ctx.db, thread.id, viewerId, q.sort === '-createdAt', offset, q.perPage);
  const [total, comments] = await Promise.all([
    pageTotal(replies.length, offset, q.perPage, () => countReplies(ctx.db, thread.id, viewerId)),
    firstCommentsOf(
      ctx.db,
      replies.map((r) => r.id),
      viewerId,
      COMMENTS_PREVIEW,
    ),
  ]);
  const byReply = new Map<number, PostRow[]>();
  for (const c of comments) byReply.set(c.replyPostId!, [...(byReply.get(c.replyPostId!) ?? []), c]);
  return pageOf(await presentPosts(ctx.db, viewer, thread, replies, byReply), q.page, q.perPage, total);
}

/** A reply of a visible thread, visible to the viewer, or -4004. */
async function readableReply(
  ctx: AppContext,
  viewer: ViewerContext,
  postId: number,
): Promise<{ thread: Thread; reply: Post }> {
  const reply = await findPost(ctx.db, postId);
  if (!reply) throw postNotFound();
  const thread = await findThread(ctx.db, reply.threadId);
  assertCanReadThread(viewer, thread);
  if (reply.isFirst === 1 || reply.isComment === 1 || !postExistsFor(viewer, reply)) throw postNotFound();
  return { thread, reply };
}

/** posts.reply: the comments on one reply, oldest first. */
export async function listReplyComments(
  ctx: AppContext,
  viewer: ViewerContext,
  q: { postId: number; page: number; perPage: number },
): Promise<Page<PostItem>> {
  const { thread, reply } = await readableReply(ctx, viewer, q.postId);
  const viewerId = viewer.user?.id ?? null;
  const [total, rows] = await Promise.all([
    countComments(ctx.db, reply.id, viewerId),
    listComments(ctx.db, reply.id, viewerId, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return pageOf(await presentPosts(ctx.db, viewer, thread, rows), q.page, q.perPage, total);
}

/** posts.detail: one reply, presented as posts.list presents it (with its first comments). */
export async function replyDetail(ctx: AppContext, viewer: ViewerContext, postId: number): Promise<PostItem> {
  const { thread, reply } = await readableReply(ctx, viewer, postId);
  const [row, comments] = await Promise.all([
    findPostRow(ctx.db, reply.id),
    firstCommentsOf(ctx.db, [reply.id], viewer.user?.id ?? null, COMMENTS_PREVIEW),
  ]);
  if (!row) throw postNotFound();
  const [item] = await presentPosts(ctx.db, viewer, thread, [row], new Map([[reply.id, comments]]));
  return item!;
}

/** posts.postion: the page of posts.list (of `pageSize`) holding a reply and its place there; a comment's place. */
export async function postPosition(
  ctx: AppContext,
  viewer: ViewerContext,
  q: { threadId: number; postId: number; pageSize: number },
): Promise<PostPosition> {
  const thread = await findThread(ctx.db, q.threadId);
  assertCanReadThread(viewer, thread);
  const post = await findPost(ctx.db, q.postId);
  if (!post || post.threadId !== thread.id || post.isFirst === 1) throw postNotFound();
  const position = await visiblePosition(ctx.db, post, viewer.user?.id ?? null);
  if (position === null) throw postNotFound();
  if (post.isComment === 1) return { page: 1, location: position, pageSize: q.pageSize };
  const page = Math.ceil(position / q.pageSize);
  return { page, location: position - (page - 1) * q.pageSize, pageSize: q.pageSize };
}

async function postItem(ctx: AppContext, viewer: ViewerContext, thread: Thread, id: number): Promise<PostItem> {
  const row = await findPostRow(ctx.db, id);
  if (!row) throw postNotFound();
  const [item] = await presentPosts(ctx.db, viewer, thread, [row]);
  // The first post of a paid thread is its body: a viewer who may not read it whole reads the free part.
  if (row.isFirst === 1) item!.content = await firstPostContentFor(ctx.db, viewer, thread, item!.content);
  return item!;
}

/**
 * Counts a reply or comment that became visible (created approved, or approved from the review queue): the thread's
 * replies (or the reply's comments), the thread's last reply and the author's posts.
 */
export async function countApprovedPost(
  trx: Kysely<DB>,
  p: { threadId: number; replyPostId: number | null; userId: number },
  at: string,
): Promise<void> {
  await bumpThreadCounter(trx, p.threadId, 'postCount', p.replyPostId ? 0 : 1, {
    lastPostedAt: at,
    lastPostedUserId: p.userId,
  });
  if (p.replyPostId) await bumpPostCounter(trx, p.replyPostId, 'replyCount', 1);
  await bumpUserCounter(trx, p.userId, 'postCount', 1);
}

/** The reverse of countApprovedPost, for a visible reply that is hidden or sent back to review. */
export async function uncountPost(
  trx: Kysely<DB>,
  p: { threadId: number; replyPostId: number | null; isComment: number; userId: number },
): Promise<void> {
  if (p.isComment === 1) await bumpPostCounter(trx, p.replyPostId!, 'replyCount', -1);
  else await bumpThreadCounter(trx, p.threadId, 'postCount', -1);
  await bumpUserCounter(trx, p.userId, 'postCount', -1);
}

const notPublished = () => invalidField('id', msg('posts.threadNotPublishedYet'));

export async function createPost(
  ctx: AppContext,
  viewer: ViewerContext,
  body: PostCreateBody,
  ip: string,
): Promise<PostItem> {
  const user = requireUser(viewer);
  const thread = await findThread(ctx.db, body.id);
  assertCanReadThread(viewer, thread);
  if (!isPublished(thread)) throw notPublished();
  if (!acting(viewer, 'thread.reply', thread.categoryId)) throw denied(viewer);
  assertMayPublish(viewer);

  let replyId = body.replyId;
  let answered: Post | undefined;
  if (body.commentPostId !== undefined) {
    answered = await findPost(ctx.db, body.commentPostId);
    if (!answered || answered.threadId !== thread.id || answered.isFirst === 1 || !postExistsFor(viewer, answered)) {
      throw postNotFound();
    }
    // Answering a reply itself, or a comment under it: either way the new comment goes under that reply.
    const under = answered.isComment === 1 ? answered.replyPostId! : answered.id;
    if (replyId !== undefined && replyId !== under) {
      throw invalidField('commentPostId', msg('posts.commentAnsweredNotUnder'));
    }
    replyId = under;
  }
  let reply: Post | undefined;
  if (replyId !== undefined) {
    reply = await findPost(ctx.db, replyId);
    if (
      !reply ||
      reply.threadId !== thread.id ||
      reply.isFirst === 1 ||
      reply.isComment === 1 ||
      !postExistsFor(viewer, reply)
    ) {
      throw postNotFound();
    }
  } else if (body.isComment) {
    throw invalidField('replyId', msg('posts.commentNeedsReplyOn'));
  }

  const screened = await screenText(ctx.db, ctx.stopWords, 'ugc', body.content, 'content', replaceLiterally);
  const content = screened.text;
  // A {MOD} word holds the reply for review: it counts nowhere until approved (administrators are never held).
  const held = screened.held && !viewer.isAdmin;
  const rendered = await renderContent(ctx.db, content, user.id, await topicsNamedIn(ctx.db, content, user.id));
  const at = now();
  const postId = await ctx.db.transaction().execute(async (trx) => {
    await lockThread(trx, ctx.dialect, thread.id);
    const id = await insertPost(trx, {
      threadId: thread.id,
      userId: user.id,
      replyPostId: reply?.id ?? null,
      replyUserId: reply?.userId ?? null,
      commentPostId: answered?.isComment === 1 ? answered.id : null,
      commentUserId: answered?.isComment === 1 ? answered.userId : null,
      content,
      contentHtml: rendered.html,
      ip,
      isFirst: 0,
      isComment: reply ? 1 : 0,
      isApproved: held ? 0 : 1,
      createdAt: at,
      updatedAt: at,
      deletedAt: null,
      deletedUserId: null,
    });
    if (!held)
      await countApprovedPost(trx, { threadId: thread.id, replyPostId: reply?.id ?? null, userId: user.id }, at);
    await replaceMentions(trx, id, rendered.mentions);
    await linkAttachments(trx, user.id, id, content);
    await ctx.events.emit(trx, 'post.created', { postId: id, threadId: thread.id, userId: user.id });
    return id;
  });
  return postItem(ctx, viewer, thread, postId);
}

/** posts.update: edit, like or unlike, hide or restore; every requested change is allowed first. */
export async function updatePost(ctx: AppContext, viewer: ViewerContext, body: PostUpdateBody): Promise<PostItem> {
  const user = requireUser(viewer);
  const post = await findPost(ctx.db, body.id);
  if (!post) throw postNotFound();
  const thread = await findThread(ctx.db, post.threadId);
  assertCanReadThread(viewer, thread);
  const restoring = body.isDeleted === false && post.deletedAt !== null;
  if (restoring) {
    if (!acting(viewer, 'thread.hidePosts', thread.categoryId)) throw postNotFound();
    if (body.content !== undefined || body.isLiked !== undefined) throw postNotFound();
  } else if (!postExistsFor(viewer, post)) {
    throw postNotFound();
  }
  if (body.content !== undefined && !canEditPost(viewer, thread, post)) throw denied(viewer);
  if (body.isLiked !== undefined) {
    if (!acting(viewer, 'thread.likePosts', thread.categoryId)) throw denied(viewer);
    if (!isPublished(thread)) throw notPublished();
  }
  if (body.isDeleted === true) {
    if (post.isFirst === 1) {
      throw invalidField('id', msg('posts.firstPostGoesThread'));
    }
    if (!canHidePost(viewer, thread, post)) throw denied(viewer);
  }

  const screened =
    body.content !== undefined
      ? await screenText(ctx.db, ctx.stopWords, 'ugc', body.content, 'content', replaceLiterally)
      : undefined;
  const content = screened?.text;
  const held = (screened?.held ?? false) && !viewer.isAdmin;
  const rendered =
    content !== undefined
      ? await renderContent(
          ctx.db,
          content,
          post.userId,
          await topicsNamedIn(ctx.db, content, post.isFirst === 1 ? topicCreator(thread) : post.userId),
        )
      : undefined;
  const at = now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockThread(trx, ctx.dialect, thread.id);
    if (rendered && content !== undefined) {
      if (post.isFirst === 1) {
        await trx
          .updateTable('threads')
          .set({ summary: summarize(rendered.plain), updatedAt: at })
          .where('id', '=', thread.id)
          .execute();
        const current = await findThread(trx, thread.id);
        // The first post is the thread's body: new text with a {MOD} word sends the thread back to review.
        if (held && current && current.isApproved === 1) await changeThreadState(trx, current, { isApproved: 0 });
      }
      const current = post.isFirst === 1 ? await findThread(trx, thread.id) : undefined;
      await recordPostEdit(trx, {
        // As it is now, under the thread's lock (another edit may have landed since it was read).
        post: (await findPost(trx, post.id)) ?? post,
        ...(current ? { title: { before: current.title, after: current.title } } : {}),
        content,
        editorId: user.id,
        at,
      });
      await updatePostIf(trx, post.id, { content, contentHtml: rendered.html, updatedAt: at });
      await replaceMentions(trx, post.id, rendered.mentions);
      await linkAttachments(trx, post.userId, post.id, content);
      if (held && post.isFirst === 0) {
        const current = await findPost(trx, post.id);
        if (current && current.isApproved === 1) {
          await updatePostIf(trx, post.id, { isApproved: 0 });
          if (current.deletedAt === null) await uncountPost(trx, current);
        }
      }
    }
    if (body.isLiked !== undefined) {
      const changed = body.isLiked ? await addLike(trx, post.id, user.id, at) : await removeLike(trx, post.id, user.id);
      if (changed && body.isLiked) {
        const liked = { postId: post.id, threadId: thread.id, userId: user.id, isFirst: post.isFirst === 1 };
        await ctx.events.emit(trx, 'post.liked', liked);
      }
      if (changed) {
        const delta = body.isLiked ? 1 : -1;
        if (post.isFirst === 1) await bumpThreadCounter(trx, thread.id, 'likeCount', delta);
        await bumpPostCounter(trx, post.id, 'likeCount', delta);
        // Likes of an anonymous thread count for no one's likes received: they would point at its author.
        if (post.isFirst === 0 || thread.isAnonymous !== 1) {
          await bumpUserCounter(trx, post.userId, 'likedCount', delta);
        }
      }
    }
    if (body.isDeleted !== undefined && post.isFirst === 0) {
      const hiding = body.isDeleted;
      const changed = await updatePostIf(
        trx,
        post.id,
        hiding ? { deletedAt: at, deletedUserId: user.id } : { deletedAt: null, deletedUserId: null },
        !hiding,
      );
      const approved = (await findPost(trx, post.id))?.isApproved === 1;
      if (changed && approved) {
        const delta = hiding ? -1 : 1;
        if (post.isComment === 1) await bumpPostCounter(trx, post.replyPostId!, 'replyCount', delta);
        else await bumpThreadCounter(trx, thread.id, 'postCount', delta);
        await bumpUserCounter(trx, post.userId, 'postCount', delta);
      }
    }
    if (rendered) await ctx.events.emit(trx, 'post.updated', { postId: post.id, threadId: thread.id, userId: user.id });
    if (body.isDeleted === true && post.deletedAt === null) {
      const moderated = {
        postId: post.id,
        threadId: thread.id,
        actorId: user.id,
        action: 'deleted',
        reason: '',
      } as const;
      await ctx.events.emit(trx, 'post.moderated', moderated);
    }
    if (restoring)
      await ctx.events.emit(trx, 'post.restored', { postId: post.id, threadId: thread.id, actorId: user.id });
  });
  return postItem(ctx, viewer, thread, post.id);
}
