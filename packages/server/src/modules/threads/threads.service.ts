import {
  THREAD_TITLE_MAX,
  type LikedUser,
  type Page,
  type ThreadCreateBody,
  type ThreadDetail,
  type ThreadItem,
  type ThreadOperateBody,
  type ThreadUpdateBody,
  describeProblem,
  pageOf,
} from '@luntan/shared';
import { type Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { ThreadsTable } from '../../db/schema.js';
import { linkAttachments } from '../attachments/index.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import { bumpCategoryThreadCount, findCategory } from '../categories/index.js';
import { categoryNotFound } from '../categories/index.js';
import { freeFractionOf, plainLength, renderContent, replaceLiterally, summarize } from '../content/index.js';
import { topicsNamedIn } from '../topics/index.js';
import { countLikes, findPost, insertPost, listLikers, replaceMentions, updatePostIf } from './post-rows.repository.js';
import { recordPostEdit } from './post-versions.repository.js';
import { screenText } from '../stop-words/index.js';
import {
  assertCanReadThread,
  assertMayPublish,
  canDeleteThread,
  canEditThread,
  canMoveThreadInto,
  denied,
  isPublished,
  postExistsFor,
  postNotFound,
  threadExistsFor,
  threadNotFound,
} from './thread.policy.js';
import { assertMaySetPrice } from './paid-threads.service.js';
import { assertMayPostAnonymously, topicCreator } from './anonymous.js';
import { assertMaySetPosition, positionColumns } from './thread-position.js';
import { presentThreadDetail, presentThreads } from './threads.presenter.js';
import { changeThreadState, lockThread } from './thread-state.js';
import {
  addFavorite,
  addView,
  bumpThreadCounter,
  bumpUserCounter,
  findThread,
  findThreadDetail,
  findThreadRow,
  insertThread,
  removeFavorite,
  updateThreadIf,
  type ThreadDetailRead,
} from './threads.repository.js';
import { msg } from '../../i18n/index.js';
import {
  applyThreadParts,
  assertMayWriteParts,
  partsHoldDraft,
  partTypesByThread,
  prepareThreadParts,
} from '../thread-parts/index.js';

/**
 * The stop words applied to a thread's title and body: -4006 for a banned word, replacements made, and `held` when
 * a {MOD} word means review (administrators' own threads are never held).
 */
async function screenThread<T extends string | undefined>(
  ctx: AppContext,
  viewer: ViewerContext,
  title: T,
  text: T,
): Promise<{ title: T; text: T; held: boolean }> {
  const t = title === undefined ? undefined : await screenText(ctx.db, ctx.stopWords, 'ugc', title, 'title');
  const c =
    text === undefined
      ? undefined
      : await screenText(ctx.db, ctx.stopWords, 'ugc', text, 'content.text', replaceLiterally);
  return {
    // A replacement may make a title longer than allowed: it is cut to the limit.
    title: (t ? [...t.text].slice(0, THREAD_TITLE_MAX).join('') : undefined) as T,
    text: c?.text as T,
    held: !viewer.isAdmin && ((t?.held ?? false) || (c?.held ?? false)),
  };
}

async function detailOf(ctx: AppContext, viewer: ViewerContext, id: number): Promise<ThreadDetail> {
  const read = await findThreadDetail(ctx.db, id, viewer.user?.id ?? 0);
  if (!read) throw threadNotFound();
  return presentThreadDetail(ctx.db, ctx.threadParts, viewer, read);
}

export async function createThread(
  ctx: AppContext,
  viewer: ViewerContext,
  body: ThreadCreateBody,
  ip: string,
): Promise<ThreadDetail> {
  const user = requireUser(viewer);
  const category = await findCategory(ctx.db, body.categoryId);
  if (!category) throw categoryNotFound();
  if (!can(viewer, 'createThread', category.id)) throw denied(viewer);
  if (body.anonymous) assertMayPostAnonymously(viewer, category.id);
  assertMayPublish(viewer);
  const priceCents = body.price ?? 0;
  assertMaySetPrice(viewer, category.id, priceCents);
  assertMaySetPosition(viewer, category.id, body.position);
  assertMayWriteParts(ctx.threadParts, viewer, category.id, body.content.indexes);
  await prepareThreadParts(ctx.db, ctx.threadParts, viewer, body.content.indexes, null);
  // A part paid through a provider (a red packet) keeps the thread a draft until it is paid.
  const held = await partsHoldDraft(ctx.db, ctx.threadParts, body.content.indexes, null);
  const screened = await screenThread(ctx, viewer, body.title, body.content.text);
  const { title, text } = screened;
  const topics = await topicsNamedIn(
    ctx.db,
    text,
    topicCreator({ userId: user.id, isAnonymous: body.anonymous ? 1 : 0 }),
  );
  const rendered = await renderContent(ctx.db, text, user.id, topics);
  const at = now();
  const draft = body.draft || held ? 1 : 0;
  const approved = screened.held ? 0 : 1;
  const threadId = await ctx.db.transaction().execute(async (trx) => {
    const id = await insertThread(trx, {
      categoryId: category.id,
      userId: user.id,
      title,
      summary: summarize(rendered.plain),
      firstPostId: null,
      isSticky: 0,
      isEssence: 0,
      isApproved: approved,
      isDraft: draft,
      createdAt: at,
      updatedAt: at,
      lastPostedAt: at,
      lastPostedUserId: user.id,
      deletedAt: null,
      deletedUserId: null,
      priceCents,
      freeWordsFraction: freeFractionOf(body.freeWords ?? 0, [...rendered.plain].length),
      isAnonymous: body.anonymous ? 1 : 0,
      ...positionColumns(body.position),
    });
    const postId = await insertPost(trx, {
      threadId: id,
      userId: user.id,
      replyPostId: null,
      replyUserId: null,
      commentPostId: null,
      commentUserId: null,
      content: text,
      contentHtml: rendered.html,
      ip,
      isFirst: 1,
      isComment: 0,
      isApproved: 1,
      createdAt: at,
      updatedAt: at,
      deletedAt: null,
      deletedUserId: null,
    });
    await updateThreadIf(trx, id, { firstPostId: postId });
    await replaceMentions(trx, postId, rendered.mentions);
    await applyThreadParts(
      trx,
      ctx.threadParts,
      {
        viewer,
        thread: { id, userId: user.id, categoryId: category.id, postId, isDraft: draft === 1 },
        at,
      },
      body.content.indexes,
    );
    if (!draft && approved) {
      await bumpCategoryThreadCount(trx, category.id, 1);
      // An anonymous thread counts in no one's thread count (anonymous.ts).
      if (!body.anonymous) await bumpUserCounter(trx, user.id, 'threadCount', 1);
    }
    await linkAttachments(trx, user.id, postId, text);
    await ctx.events.emit(trx, 'thread.created', { threadId: id, userId: user.id, categoryId: category.id });
    return id;
  });
  return detailOf(ctx, viewer, threadId);
}

export async function updateThread(
  ctx: AppContext,
  viewer: ViewerContext,
  body: ThreadUpdateBody,
): Promise<ThreadDetail> {
  const user = requireUser(viewer);
  const thread = await findThread(ctx.db, body.threadId);
  if (!thread || !threadExistsFor(viewer, thread)) throw threadNotFound();
  if (!canEditThread(viewer, thread)) throw denied(viewer);

  const changes: Updateable<ThreadsTable> = {};
  if (body.categoryId !== undefined && body.categoryId !== thread.categoryId) {
    const target = await findCategory(ctx.db, body.categoryId);
    if (!target) throw categoryNotFound();
    if (!canMoveThreadInto(viewer, target.id)) throw denied(viewer);
    changes.categoryId = target.id;
  }
  if (body.draft === true && thread.isDraft === 0) {
    throw invalidField('draft', msg('threads.publishedThreadCannotBecome'));
  }
  const indexes = body.content?.indexes;
  // A part waiting to be paid through a provider (a red packet) keeps a draft one: paying it publishes the thread.
  const held = thread.isDraft === 1 && (await partsHoldDraft(ctx.db, ctx.threadParts, indexes, thread.id));
  const publishing = body.draft === false && thread.isDraft === 1 && !held;
  if (publishing) changes.isDraft = 0;
  if (body.price !== undefined && body.price !== thread.priceCents) {
    assertMaySetPrice(viewer, changes.categoryId ?? thread.categoryId, body.price);
    changes.priceCents = body.price;
  }
  assertMaySetPosition(viewer, changes.categoryId ?? thread.categoryId, body.position);
  Object.assign(changes, positionColumns(body.position));
  assertMayWriteParts(ctx.threadParts, viewer, changes.categoryId ?? thread.categoryId, indexes);
  await prepareThreadParts(ctx.db, ctx.threadParts, viewer, indexes, thread.id);

  const first = thread.firstPostId ? await findPost(ctx.db, thread.firstPostId) : undefined;
  const screened = await screenThread(ctx, viewer, body.title, body.content?.text);
  const title = screened.title ?? thread.title;
  const text = screened.text ?? first?.content ?? '';
  // New text with a {MOD} word sends the thread back to review.
  if (screened.held) changes.isApproved = 0;
  const published = (changes.isDraft ?? thread.isDraft) === 0;
  if (published && title === '') throw invalidField('title', describeProblem('title', { kind: 'empty' }));
  const rendered = body.content
    ? await renderContent(ctx.db, text, thread.userId, await topicsNamedIn(ctx.db, text, topicCreator(thread)))
    : undefined;
  if (body.freeWords !== undefined) {
    // A legacy character count is the share of the body as it will be after this change.
    const length = rendered ? [...rendered.plain].length : plainLength(first?.contentHtml ?? '');
    changes.freeWordsFraction = freeFractionOf(body.freeWords, length);
  }
  const at = now();

  await ctx.db.transaction().execute(async (trx) => {
    await lockThread(trx, ctx.dialect, thread.id);
    const current = await findThread(trx, thread.id);
    if (!current || current.deletedAt !== null) throw threadNotFound();
    const textChanges: Updateable<ThreadsTable> = { title, updatedAt: at };
    if (rendered) textChanges.summary = summarize(rendered.plain);
    if (publishing) Object.assign(textChanges, { createdAt: at, lastPostedAt: at });
    await changeThreadState(trx, current, { ...changes, ...textChanges });
    // The edit history (post-versions.repository.ts): a published thread's title or text as it was and as it is.
    if (first && current.isDraft === 0) {
      await recordPostEdit(trx, {
        // As it is now, under the thread's lock (another edit may have landed since it was read).
        post: (await findPost(trx, first.id)) ?? first,
        title: { before: current.title, after: title },
        content: rendered ? text : first.content,
        editorId: user.id,
        at,
      });
    }
    if (rendered && first) {
      await updatePostIf(trx, first.id, { content: text, contentHtml: rendered.html, updatedAt: at });
      await replaceMentions(trx, first.id, rendered.mentions);
      await linkAttachments(trx, first.userId, first.id, text);
    }
    const partThread = {
      id: thread.id,
      userId: thread.userId,
      categoryId: changes.categoryId ?? thread.categoryId,
      postId: thread.firstPostId ?? 0,
      isDraft: (changes.isDraft ?? thread.isDraft) === 1,
    };
    await applyThreadParts(trx, ctx.threadParts, { viewer, thread: partThread, at }, indexes);
    // A published thread needs text or at least one part (checked after the parts changed).
    if (
      published &&
      text.trim() === '' &&
      ((await partTypesByThread(trx, [thread.id])).get(thread.id) ?? []).length === 0
    ) {
      throw invalidField('content.text', describeProblem('content.text', { kind: 'empty' }));
    }
    await ctx.events.emit(trx, 'thread.updated', { threadId: thread.id, userId: user.id });
  });
  return detailOf(ctx, viewer, thread.id);
}

export async function deleteThread(ctx: AppContext, viewer: ViewerContext, threadId: number): Promise<void> {
  const user = requireUser(viewer);
  const thread = await findThread(ctx.db, threadId);
  if (!thread || !threadExistsFor(viewer, thread)) throw threadNotFound();
  if (!canDeleteThread(viewer, thread)) throw denied(viewer);
  await ctx.db.transaction().execute(async (trx) => {
    await lockThread(trx, ctx.dialect, thread.id);
    const current = await findThread(trx, thread.id);
    if (!current || current.deletedAt !== null) throw threadNotFound();
    await changeThreadState(trx, current, { deletedAt: now(), deletedUserId: user.id });
    await ctx.events.emit(trx, 'thread.moderated', {
      threadId: thread.id,
      actorId: user.id,
      action: 'deleted',
      reason: '',
    });
  });
}

const acting = (viewer: ViewerContext, key: string, categoryId: number) =>
  viewer.user !== null && can(viewer, key, categoryId);

/** threads/operate: every requested change is allowed first, then all apply in one transaction. */
export async function operateThread(
  ctx: AppContext,
  viewer: ViewerContext,
  body: ThreadOperateBody,
): Promise<ThreadItem> {
  const user = requireUser(viewer);
  const thread = await findThread(ctx.db, body.id);
  const restoring = body.isDeleted === false && thread?.deletedAt != null;
  if (!thread) throw threadNotFound();
  if (restoring) {
    // Only a moderator restores, and only that: a deleted thread takes no other operation.
    if (!acting(viewer, 'thread.hide', thread.categoryId)) throw threadNotFound();
  } else if (!threadExistsFor(viewer, thread)) {
    throw threadNotFound();
  }
  const deletedOthers =
    restoring &&
    (body.isSticky !== undefined ||
      body.isEssence !== undefined ||
      body.isFavorite !== undefined ||
      body.categoriesId !== undefined);
  if (deletedOthers) throw threadNotFound();

  if (body.isSticky !== undefined && !acting(viewer, 'thread.sticky', thread.categoryId)) throw denied(viewer);
  if (body.isEssence !== undefined && !acting(viewer, 'thread.essence', thread.categoryId)) throw denied(viewer);
  if (body.isFavorite !== undefined) {
    if (!acting(viewer, 'thread.favorite', thread.categoryId) || !can(viewer, 'thread.viewPosts', thread.categoryId)) {
      throw denied(viewer);
    }
    if (!isPublished(thread) && body.isFavorite) {
      throw invalidField('id', msg('threads.threadNotPublishedYet'));
    }
  }
  if (body.isDeleted === true && !canDeleteThread(viewer, thread)) throw denied(viewer);
  let targetCategory: number | undefined;
  if (body.categoriesId !== undefined && body.categoriesId !== thread.categoryId) {
    if (!acting(viewer, 'thread.edit', thread.categoryId)) throw denied(viewer);
    const target = await findCategory(ctx.db, body.categoriesId);
    if (!target) throw categoryNotFound();
    if (!canMoveThreadInto(viewer, target.id)) throw denied(viewer);
    targetCategory = target.id;
  }

  const at = now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockThread(trx, ctx.dialect, thread.id);
    let current = await findThread(trx, thread.id);
    if (!current) throw threadNotFound();
    const flags: Updateable<ThreadsTable> = {};
    if (body.isSticky !== undefined) flags.isSticky = body.isSticky ? 1 : 0;
    if (body.isEssence !== undefined) flags.isEssence = body.isEssence ? 1 : 0;
    if (Object.keys(flags).length > 0) await updateThreadIf(trx, thread.id, flags);

    if (body.isFavorite === true && (await addFavorite(trx, thread.id, user.id, at))) {
      await bumpThreadCounter(trx, thread.id, 'favoriteCount', 1);
    }
    if (body.isFavorite === false && (await removeFavorite(trx, thread.id, user.id))) {
      await bumpThreadCounter(trx, thread.id, 'favoriteCount', -1);
    }

    const state: Updateable<ThreadsTable> = {};
    if (targetCategory !== undefined) state.categoryId = targetCategory;
    if (body.isDeleted === true && current.deletedAt === null)
      Object.assign(state, { deletedAt: at, deletedUserId: user.id });
    if (body.isDeleted === false && current.deletedAt !== null)
      Object.assign(state, { deletedAt: null, deletedUserId: null });
    if (Object.keys(state).length > 0) {
      current = await changeThreadState(trx, current, state);
      if (current.deletedAt === null && state.deletedAt === null) {
        await ctx.events.emit(trx, 'thread.restored', { threadId: thread.id, actorId: user.id });
      }
    }
    // What it changed for the author (made sticky, made essence, deleted) is announced.
    const actions: ('sticky' | 'essence' | 'deleted')[] = [];
    if (body.isSticky === true && thread.isSticky === 0) actions.push('sticky');
    if (body.isEssence === true && thread.isEssence === 0) actions.push('essence');
    if (body.isDeleted === true && thread.deletedAt === null) actions.push('deleted');
    for (const action of actions) {
      await ctx.events.emit(trx, 'thread.moderated', { threadId: thread.id, actorId: user.id, action, reason: '' });
    }
  });
  const row = await findThreadRow(ctx.db, thread.id);
  if (!row) throw threadNotFound();
  const [item] = await presentThreads(ctx.db, viewer, [row]);
  return item!;
}

/**
 * A thread as thread.detail answers it. `reading`: the thread's read already under way (a page render shares one
 * read between its detail and its replies: modules/web/page-api.ts).
 */
export async function threadDetail(
  ctx: AppContext,
  viewer: ViewerContext,
  threadId: number,
  reading: Promise<ThreadDetailRead | undefined> = findThreadDetail(ctx.db, threadId, viewer.user?.id ?? 0),
): Promise<ThreadDetail> {
  const read = await reading;
  assertCanReadThread(viewer, read?.row);
  return presentThreadDetail(ctx.db, ctx.threadParts, viewer, read!);
}

export async function likedUsers(
  ctx: AppContext,
  viewer: ViewerContext,
  q: { threadId: number; postId?: number | undefined; page: number; perPage: number },
): Promise<Page<LikedUser>> {
  const thread = await findThread(ctx.db, q.threadId);
  assertCanReadThread(viewer, thread);
  const postId = q.postId ?? thread.firstPostId ?? 0;
  const post = await findPost(ctx.db, postId);
  if (!post || post.threadId !== thread.id || !postExistsFor(viewer, post)) throw postNotFound();
  const [total, rows] = await Promise.all([
    countLikes(ctx.db, post.id),
    listLikers(ctx.db, post.id, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return pageOf(rows, q.page, q.perPage, total);
}

/**
 * Counts a view of a thread: once an hour per viewer (a member by id, a guest by address), so reloading a page or
 * coming back to it does not raise the count each time. Answers the count as it is now.
 */
export async function countView(
  ctx: AppContext,
  viewer: ViewerContext,
  threadId: number,
  address: string,
): Promise<{ threadId: number; viewCount: number }> {
  const thread = await findThread(ctx.db, threadId);
  assertCanReadThread(viewer, thread);
  const who = viewer.user ? `u${viewer.user.id}` : `a${address}`;
  if (!(await ctx.limits.threadViews.tryConsume(`${threadId}:${who}`))) {
    return { threadId, viewCount: thread.viewCount };
  }
  await ctx.db.transaction().execute((trx) => addView(trx, threadId));
  const after = await findThread(ctx.db, threadId);
  return { threadId, viewCount: after?.viewCount ?? thread.viewCount + 1 };
}

/** thread.share: counts one share of a thread the viewer may read (the family counted every call, as here). */
export async function countShare(
  ctx: AppContext,
  viewer: ViewerContext,
  threadId: number,
): Promise<{ threadId: number; shareCount: number }> {
  const thread = await findThread(ctx.db, threadId);
  assertCanReadThread(viewer, thread);
  if (!isPublished(thread)) throw threadNotFound();
  await bumpThreadCounter(ctx.db, threadId, 'shareCount', 1);
  const after = await findThread(ctx.db, threadId);
  return { threadId, shareCount: after?.shareCount ?? thread.shareCount + 1 };
}
