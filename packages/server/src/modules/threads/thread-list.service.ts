import {
  Code,
  ThreadComplex,
  describeProblem,
  pageOf,
  type Page,
  type ThreadItem,
  type ThreadListQuery,
  type ThreadRecommend,
  ThreadSort,
} from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { AppError, invalidField, needLogin } from '../../core/errors.js';
import type { Category } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { categoryNotFound } from '../categories/index.js';
import { categoriesOf } from '../categories/index.js';
import { likesVisibleTo } from '../people/index.js';
import { parseKeywords } from '../search/index.js';
import { presentMatchedPosts } from '../search/index.js';
import { denied } from './thread.policy.js';
import { presentThreads } from './threads.presenter.js';
import { keptListsOf } from './kept-lists.js';
import { listStickyThreads, type ThreadListFilter } from './thread-list.repository.js';
import { msg } from '../../i18n/index.js';

/** The thread lists: the home page and a category's (filtered, sorted, searched), and the sticky threads. */

/**
 * The categories the list may show: those the viewer may view (all when viewThreads is held globally), narrowed to
 * the requested ones and their sub-categories. Throws -7076 for an unknown category, -3001/-4002 when none is left.
 */
function listableCategories(
  all: readonly Category[],
  viewer: ViewerContext,
  requested: number[] | undefined,
): number[] | null {
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
  /** `stickyFirst: false`: newest first whatever is pinned (the feeds, modules/feeds). */
  options: { stickyFirst?: boolean } = {},
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
    throw new AppError(Code.UNAUTHORIZED, msg('threads.memberDoesNotShow'));
  }
  if (filter.complex === ThreadComplex.BY_USER && filter.toUserId === undefined) {
    throw invalidField('filter.toUserId', describeProblem('filter.toUserId', { kind: 'required' }));
  }
  const categories = await categoriesOf(ctx);
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
    namedOnly: namedOnly(viewer, filter),
    topicId: filter.topicId,
    sort: filter.sort,
    stickyFirst:
      options.stickyFirst !== false &&
      !search &&
      filter.complex === undefined &&
      filter.toUserId === undefined &&
      filter.topicId === undefined,
    // A member's threads (the profile's list): the one they pinned first, as the family's complex 5 lists them.
    pinnedOf:
      filter.toUserId !== undefined && (filter.complex === undefined || filter.complex === ThreadComplex.BY_USER)
        ? filter.toUserId
        : undefined,
  };
  const { rows, totalCount, marks } = await keptListsOf(ctx).page(f, (page - 1) * perPage, perPage, categories);
  const items = await presentThreads(ctx.db, viewer, rows, marks);
  if (!search) return pageOf(items, page, perPage, totalCount);
  const matched = await presentMatchedPosts(ctx.db, viewerId, searchTerms, rows);
  const found = items.map((item) => ({ ...item, matchedPost: matched.get(item.threadId) ?? null }));
  return pageOf(found, page, perPage, totalCount);
}

/** A member's threads listed for someone else (not them, not an administrator): their anonymous ones stay out. */
const namedOnly = (viewer: ViewerContext, filter: ThreadListQuery['filter']) =>
  filter.toUserId !== undefined &&
  filter.complex !== ThreadComplex.LIKED &&
  filter.toUserId !== viewer.user?.id &&
  !viewer.isAdmin;

/** Of the listed categories (null: all), those whose replies the viewer may read (thread.viewPosts); null: all. */
function replyCategories(all: readonly Category[], viewer: ViewerContext, listed: number[] | null): number[] | null {
  if (listed === null && can(viewer, 'thread.viewPosts')) return null;
  return (listed ?? all.map((c) => c.id)).filter((id) => can(viewer, 'thread.viewPosts', id));
}

/** GET thread.stick: the sticky threads of the home page or of one category (and its sub-categories). */
export async function stickyThreads(
  ctx: AppContext,
  viewer: ViewerContext,
  categoryId: number | undefined,
): Promise<ThreadItem[]> {
  const categoryIds = listableCategories(await categoriesOf(ctx), viewer, categoryId ? [categoryId] : undefined);
  const rows = await listStickyThreads(ctx.db, categoryIds, 20);
  return presentThreads(ctx.db, viewer, rows);
}

/** thread.recommends: the hot threads the viewer may see (as thread.list sort 3 lists them), in the family's fields. */
export async function recommendedThreads(
  ctx: AppContext,
  viewer: ViewerContext,
  q: { perPage: number; filter: { categoryids?: number[] | undefined } },
): Promise<ThreadRecommend[]> {
  const page = await listThreadsFor(ctx, viewer, {
    page: 1,
    perPage: q.perPage,
    filter: { sort: ThreadSort.HOT, categoryids: q.filter.categoryids },
  });
  return page.pageData.map((t) => ({
    threadId: t.threadId,
    categoryId: t.categoryId,
    title: t.title || t.summary,
    viewCount: t.viewCount,
  }));
}
