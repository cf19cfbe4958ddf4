import {
  Code,
  THREAD_TITLE_MAX,
  ThreadComplex,
  type LikedUser,
  type Page,
  type ThreadCreateBody,
  type ThreadDetail,
  type ThreadItem,
  type ThreadListQuery,
  type ThreadOperateBody,
  type ThreadUpdateBody,
  describeProblem,
} from '@luntan/shared';
import { sql, type Kysely, type Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, invalidField, needLogin } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DialectName } from '../../db/database.js';
import type { Category, DB, Thread, ThreadsTable } from '../../db/schema.js';
import { linkAttachments } from '../attachments/attachments.repository.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import { bumpCategoryThreadCount, findCategory, listCategories } from '../categories/categories.repository.js';
import { categoryNotFound } from '../categories/categories.service.js';
import { plainText, renderContent, replaceLiterally, summarize } from '../posts/post-content.js';
import {
  countLikes,
  findPost,
  insertPost,
  listLikers,
  replaceMentions,
  updatePostIf,
} from '../posts/posts.repository.js';
import { removeThreadIndex, writeThreadIndex } from '../search/search.repository.js';
import { parseKeywords } from '../search/search-terms.js';
import { presentMatchedPosts } from '../search/search.service.js';
import { likesVisibleTo } from '../people/people.service.js';
import { screenText } from '../stop-words/stop-words.service.js';
import {
  assertCanReadThread,
  assertMayPublish,
  canDeleteThread,
  canEditThread,
  denied,
  isPublished,
  postExistsFor,
  postNotFound,
  threadExistsFor,
  threadNotFound,
} from './thread.policy.js';
import { indexedBody } from './paid-content.js';
import { assertMaySetPrice } from './paid-threads.service.js';
import { presentThreadDetail, presentThreads } from './threads.presenter.js';
import {
  addFavorite,
  addView,
  bumpThreadCounter,
  bumpUserCounter,
  findThread,
  findThreadRow,
  insertThread,
  listStickyThreads,
  listThreadsPage,
  removeFavorite,
  updateThreadIf,
  type ThreadListFilter,
} from './threads.repository.js';

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

const changedMeanwhile = () =>
  new AppError(Code.RESOURCE_IN_USE, {
    zh: '主题刚被修改，请重试',
    en: 'The thread changed meanwhile, please try again',
  });

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
  const userDelta = Number(isCounted(next)) - Number(isCounted(t));
  if (userDelta !== 0) await bumpUserCounter(trx, t.userId, 'threadCount', userDelta);
  return next;
}

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
  const row = await findThreadRow(ctx.db, id);
  if (!row) throw threadNotFound();
  return presentThreadDetail(ctx.db, viewer, row);
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
  assertMayPublish(viewer);
  const priceCents = body.price ?? 0;
  const freeWords = body.freeWords ?? 0;
  assertMaySetPrice(viewer, category.id, priceCents);
  const screened = await screenThread(ctx, viewer, body.title, body.content.text);
  const { title, text } = screened;
  const rendered = await renderContent(ctx.db, text, user.id);
  const at = now();
  const draft = body.draft ? 1 : 0;
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
      freeWords,
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
    await writeThreadIndex(trx, ctx.dialect, id, title, indexedBody(rendered.plain, { priceCents, freeWords }));
    if (!draft && approved) {
      await bumpCategoryThreadCount(trx, category.id, 1);
      await bumpUserCounter(trx, user.id, 'threadCount', 1);
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
    if (!can(viewer, 'createThread', target.id) && !can(viewer, 'thread.edit', target.id)) throw denied(viewer);
    changes.categoryId = target.id;
  }
  if (body.draft === true && thread.isDraft === 0) {
    throw invalidField('draft', {
      zh: '已发布的主题不能改回草稿',
      en: 'A published thread cannot become a draft again',
    });
  }
  const publishing = body.draft === false && thread.isDraft === 1;
  if (publishing) changes.isDraft = 0;
  if (body.price !== undefined && body.price !== thread.priceCents) {
    assertMaySetPrice(viewer, changes.categoryId ?? thread.categoryId, body.price);
    changes.priceCents = body.price;
  }
  if (body.freeWords !== undefined) changes.freeWords = body.freeWords;
  const paying = {
    priceCents: changes.priceCents ?? thread.priceCents,
    freeWords: changes.freeWords ?? thread.freeWords,
  };

  const first = thread.firstPostId ? await findPost(ctx.db, thread.firstPostId) : undefined;
  const screened = await screenThread(ctx, viewer, body.title, body.content?.text);
  const title = screened.title ?? thread.title;
  const text = screened.text ?? first?.content ?? '';
  // New text with a {MOD} word sends the thread back to review.
  if (screened.held) changes.isApproved = 0;
  if ((changes.isDraft ?? thread.isDraft) === 0) {
    if (title === '') throw invalidField('title', describeProblem('title', { kind: 'empty' }));
    if (text.trim() === '') throw invalidField('content.text', describeProblem('content.text', { kind: 'empty' }));
  }
  const rendered = body.content ? await renderContent(ctx.db, text, thread.userId) : undefined;
  const at = now();

  await ctx.db.transaction().execute(async (trx) => {
    await lockThread(trx, ctx.dialect, thread.id);
    const current = await findThread(trx, thread.id);
    if (!current || current.deletedAt !== null) throw threadNotFound();
    const textChanges: Updateable<ThreadsTable> = { title, updatedAt: at };
    if (rendered) textChanges.summary = summarize(rendered.plain);
    if (publishing) Object.assign(textChanges, { createdAt: at, lastPostedAt: at });
    await changeThreadState(trx, current, { ...changes, ...textChanges });
    if (rendered && first) {
      await updatePostIf(trx, first.id, { content: text, contentHtml: rendered.html, updatedAt: at });
      await replaceMentions(trx, first.id, rendered.mentions);
      await linkAttachments(trx, first.userId, first.id, text);
    }
    const plain = rendered?.plain ?? plainText(first?.contentHtml ?? '');
    await writeThreadIndex(trx, ctx.dialect, thread.id, title, indexedBody(plain, paying));
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
    await removeThreadIndex(trx, ctx.dialect, thread.id);
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
      throw invalidField('id', { zh: '主题尚未发布', en: 'The thread is not published yet' });
    }
  }
  if (body.isDeleted === true && !canDeleteThread(viewer, thread)) throw denied(viewer);
  let targetCategory: number | undefined;
  if (body.categoriesId !== undefined && body.categoriesId !== thread.categoryId) {
    if (!acting(viewer, 'thread.edit', thread.categoryId)) throw denied(viewer);
    const target = await findCategory(ctx.db, body.categoriesId);
    if (!target) throw categoryNotFound();
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
      if (current.deletedAt !== null) {
        await removeThreadIndex(trx, ctx.dialect, thread.id);
      } else if (state.deletedAt === null) {
        const first = current.firstPostId ? await findPost(trx, current.firstPostId) : undefined;
        const plain = indexedBody(plainText(first?.contentHtml ?? ''), current);
        await writeThreadIndex(trx, ctx.dialect, thread.id, current.title, plain);
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

export async function threadDetail(ctx: AppContext, viewer: ViewerContext, threadId: number): Promise<ThreadDetail> {
  const row = await findThreadRow(ctx.db, threadId);
  assertCanReadThread(viewer, row);
  return presentThreadDetail(ctx.db, viewer, row!);
}

const pageOf = <T>(items: T[], page: number, perPage: number, totalCount: number): Page<T> => ({
  pageData: items,
  currentPage: page,
  perPage,
  totalCount,
  totalPage: Math.ceil(totalCount / perPage),
});

/**
 * The categories the list may show: those the viewer may view (all when viewThreads is held globally), narrowed to
 * the requested ones and their sub-categories. Throws -7076 for an unknown category, -3001/-4002 when none is left.
 */
function listableCategories(all: Category[], viewer: ViewerContext, requested: number[] | undefined): number[] | null {
  const viewable = all.filter((c) => can(viewer, 'viewThreads', c.id)).map((c) => c.id);
  if (!requested || requested.length === 0) {
    if (can(viewer, 'viewThreads')) return null;
    if (viewable.length === 0) throw denied(viewer);
    return viewable;
  }
  const known = new Set(all.map((c) => c.id));
  for (const id of requested) if (!known.has(id)) throw categoryNotFound();
  const wanted = new Set(requested);
  for (const c of all) if (wanted.has(c.parentId)) wanted.add(c.id);
  const allowed = [...wanted].filter((id) => viewable.includes(id));
  if (allowed.length === 0) throw denied(viewer);
  return allowed;
}

export async function listThreadsFor(
  ctx: AppContext,
  viewer: ViewerContext,
  query: ThreadListQuery,
): Promise<Page<ThreadItem>> {
  const { page, perPage, filter } = query;
  const othersLikes =
    filter.complex === ThreadComplex.LIKED && filter.toUserId !== undefined && filter.toUserId !== viewer.user?.id;
  const personal =
    filter.complex === ThreadComplex.MY_DRAFTS ||
    (filter.complex === ThreadComplex.LIKED && !othersLikes) ||
    filter.complex === ThreadComplex.FAVORITES;
  if (personal && !viewer.user) throw needLogin();
  // Another member's likes: only where they allow it (the likes privacy switch of their personal centre).
  if (othersLikes && !(await likesVisibleTo(ctx.db, viewer, filter.toUserId!))) {
    throw new AppError(Code.UNAUTHORIZED, {
      zh: '该用户没有公开点赞的内容',
      en: 'This member does not show what they liked',
    });
  }
  if (filter.complex === ThreadComplex.BY_USER && filter.toUserId === undefined) {
    throw invalidField('filter.toUserId', describeProblem('filter.toUserId', { kind: 'required' }));
  }
  const categories = await listCategories(ctx.db);
  const categoryIds = listableCategories(categories, viewer, filter.categoryids);
  const searchTerms = filter.search ? parseKeywords(filter.search) : [];
  const viewerId = viewer.user?.id ?? null;
  const search =
    searchTerms.length > 0
      ? { terms: searchTerms, replies: { viewerId, categoryIds: replyCategories(categories, viewer, categoryIds) } }
      : undefined;
  const f: ThreadListFilter = {
    viewerId,
    categoryIds,
    essence: filter.essence,
    search,
    complex: filter.complex,
    toUserId: filter.toUserId,
    sort: filter.sort,
    stickyFirst: !search && filter.complex === undefined && filter.toUserId === undefined,
  };
  const { rows, totalCount } = await listThreadsPage(ctx.db, ctx.dialect, f, (page - 1) * perPage, perPage, categories);
  const items = await presentThreads(ctx.db, viewer, rows);
  if (!search) return pageOf(items, page, perPage, totalCount);
  const matched = await presentMatchedPosts(ctx.db, viewerId, searchTerms, rows);
  const found = items.map((item) => ({ ...item, matchedPost: matched.get(item.threadId) ?? null }));
  return pageOf(found, page, perPage, totalCount);
}

/** Of the listed categories (null: all), those whose replies the viewer may read (thread.viewPosts); null: all. */
function replyCategories(all: Category[], viewer: ViewerContext, listed: number[] | null): number[] | null {
  if (listed === null && can(viewer, 'thread.viewPosts')) return null;
  return (listed ?? all.map((c) => c.id)).filter((id) => can(viewer, 'thread.viewPosts', id));
}

/** GET thread.stick: the sticky threads of the home page or of one category (and its sub-categories). */
export async function stickyThreads(
  ctx: AppContext,
  viewer: ViewerContext,
  categoryId: number | undefined,
): Promise<ThreadItem[]> {
  const categoryIds = listableCategories(await listCategories(ctx.db), viewer, categoryId ? [categoryId] : undefined);
  const rows = await listStickyThreads(ctx.db, categoryIds, 20);
  return presentThreads(ctx.db, viewer, rows);
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
