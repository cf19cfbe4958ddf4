import { ThreadComplex, ThreadSort } from '@luntan/shared';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { rowLimit } from '../../db/row-limit.js';
import type { Category, DB } from '../../db/schema.js';
import { titleHit } from '../search/index.js';
import { isSearchCandidate, matchedPostId, withSearchCandidates, type ThreadSearch } from '../search/index.js';
import { threadsWithAuthor, utcDay, type ThreadRow } from './threads.repository.js';

/*
 * The thread lists' SQL: a page of threads filtered by category, essence, search, a member's own lists, sorted (newest,
 * last replied, hot), sticky threads first where they come first, and the count of the lot.
 */

export interface ThreadListFilter {
  viewerId: number | null;
  /** null: every category. */
  categoryIds: number[] | null;
  essence?: boolean | undefined;
  /** A search: its words, and whose replies may be found (search.service.ts). */
  search?: ThreadSearch | undefined;
  complex?: number | undefined;
  toUserId?: number | undefined;
  /** Leave out anonymous threads: another's list of a member's threads must not show theirs (anonymous.ts). */
  namedOnly?: boolean | undefined;
  /** The threads linked to a topic (thread_topic, modules/topics). */
  topicId?: number | undefined;
  sort: number;
  stickyFirst: boolean;
  /** A member's profile list: the thread they pinned (user/thread.stick) comes first. */
  pinnedOf?: number | undefined;
}

/** The "hot" window: views of the last 7 days (today and the 6 before). */
const HOT_DAYS = 7;

interface ListPart {
  /** true: threads viewed in the last days only, false: the others. */
  viewedRecently?: boolean;
  /**
   * Sticky threads first, then the others, each in the list's order: one read of the list index backwards, since
   * each list index starts with is_sticky.
   */
  stickyFirst?: boolean;
}

function applyListFilter<O>(
  q: SelectQueryBuilder<DB, 'threads', O>,
  dialect: DialectName,
  f: ThreadListFilter,
  part: ListPart = {},
): SelectQueryBuilder<DB, 'threads', O> {
  // Literal 0/1 (not parameters) so that the partial indexes of listed threads can serve the query.
  q = q.where('threads.deletedAt', 'is', null);
  const viewerId = f.viewerId;
  if (f.complex === ThreadComplex.MY_DRAFTS) {
    q = q.where('threads.isDraft', '=', sql.lit(1)).where('threads.userId', '=', viewerId ?? 0);
  } else if (viewerId !== null && f.toUserId === viewerId && f.complex !== ThreadComplex.LIKED) {
    // The author's own list also shows their threads waiting for review (marked isApproved: false). Not the list of
    // what they liked (toUserId names the liker there): others' threads held since would show, held text and all.
    q = q.where('threads.isDraft', '=', sql.lit(0));
  } else {
    q = q.where('threads.isDraft', '=', sql.lit(0)).where('threads.isApproved', '=', sql.lit(1));
  }
  if (f.categoryIds) q = q.where('threads.categoryId', 'in', f.categoryIds.length > 0 ? f.categoryIds : [0]);
  if (f.essence !== undefined) q = q.where('threads.isEssence', '=', f.essence ? 1 : 0);
  // With complex 2 (liked), toUserId names whose likes are listed, not the author.
  if (f.toUserId !== undefined && f.complex !== ThreadComplex.LIKED) q = q.where('threads.userId', '=', f.toUserId);
  if (f.namedOnly) q = q.where('threads.isAnonymous', '=', sql.lit(0));
  const topicId = f.topicId;
  if (topicId !== undefined) {
    q = q.where('threads.id', 'in', (eb) =>
      eb.selectFrom('threadTopic').select('threadTopic.threadId').where('threadTopic.topicId', '=', topicId),
    );
  }
  if (part.viewedRecently !== undefined) {
    const since = utcDay(HOT_DAYS - 1);
    q = q.where('threads.id', part.viewedRecently ? 'in' : 'not in', (eb) =>
      eb.selectFrom('threadViewsDaily').select('threadViewsDaily.threadId').where('threadViewsDaily.day', '>=', since),
    );
  }
  const likerId = f.complex === ThreadComplex.LIKED ? (f.toUserId ?? viewerId) : null;
  if (likerId !== null) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('postLikes')
          .select('postLikes.postId')
          .whereRef('postLikes.postId', '=', 'threads.firstPostId')
          .where('postLikes.userId', '=', likerId),
      ),
    );
  }
  if (viewerId !== null) {
    // Authors the viewer blocked are left out; but not from anonymous threads, whose leaving would name them.
    q = q.where((eb) =>
      eb.or([
        eb('threads.isAnonymous', '=', sql.lit(1)),
        eb(
          'threads.userId',
          'not in',
          eb.selectFrom('userDenies').select('userDenies.denyUserId').where('userDenies.userId', '=', viewerId),
        ),
      ]),
    );
    if (f.complex === ThreadComplex.FAVORITES) {
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('threadFavorites')
            .select('threadFavorites.threadId')
            .whereRef('threadFavorites.threadId', '=', 'threads.id')
            .where('threadFavorites.userId', '=', viewerId),
        ),
      );
    }
  }
  // The candidates are common table expressions of the query (withSearchCandidates: `from` below).
  if (f.search) q = q.where(isSearchCandidate);
  return q;
}

/** What a list's queries start from: the database, with a search's candidates when searching. */
const from = (db: Kysely<DB>, dialect: DialectName, f: ThreadListFilter) => withSearchCandidates(db, dialect, f.search);

/**
 * Whether the count can be read from the category counters: `categories.thread_count` counts exactly the listed
 * threads of its category (not deleted, not drafts, approved), moved in the transaction of every change that
 * affects it. Counting 100,000 index entries on every home page request is what this avoids.
 */
const countsFromCategories = (f: ThreadListFilter, part: ListPart) =>
  part.viewedRecently === undefined &&
  f.essence === undefined &&
  f.complex === undefined &&
  f.toUserId === undefined &&
  f.topicId === undefined &&
  f.search === undefined;

async function countFromCategories(
  db: Kysely<DB>,
  f: ThreadListFilter,
  categories: readonly Pick<Category, 'id' | 'threadCount'>[] | undefined,
): Promise<number> {
  let total: number;
  if (categories) {
    // The caller has just read the categories (for the viewer's permissions): their counters are in hand.
    const wanted = f.categoryIds ? new Set(f.categoryIds) : null;
    total = categories.reduce((sum, c) => (wanted && !wanted.has(c.id) ? sum : sum + c.threadCount), 0);
  } else {
    let sum = db.selectFrom('categories').select((eb) => eb.fn.sum<number | string | null>('threadCount').as('n'));
    if (f.categoryIds) sum = sum.where('id', 'in', f.categoryIds.length > 0 ? f.categoryIds : [0]);
    total = Number((await sum.executeTakeFirst())?.n ?? 0);
  }
  if (f.viewerId === null) return total;
  // The lists leave out authors the viewer blocked: take their listed threads off (found by author).
  const viewerId = f.viewerId;
  let blocked = db
    .selectFrom('threads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('threads.userId', 'in', (eb) =>
      eb.selectFrom('userDenies').select('userDenies.denyUserId').where('userDenies.userId', '=', viewerId),
    )
    .where('threads.deletedAt', 'is', null)
    .where('threads.isDraft', '=', sql.lit(0))
    .where('threads.isApproved', '=', sql.lit(1))
    .where('threads.isAnonymous', '=', sql.lit(0));
  if (f.categoryIds)
    blocked = blocked.where('threads.categoryId', 'in', f.categoryIds.length > 0 ? f.categoryIds : [0]);
  return total - Number((await blocked.executeTakeFirstOrThrow()).n);
}

export async function countThreads(
  db: Kysely<DB>,
  dialect: DialectName,
  f: ThreadListFilter,
  part: ListPart = {},
  categories?: readonly Pick<Category, 'id' | 'threadCount'>[],
): Promise<number> {
  if (countsFromCategories(f, part)) return countFromCategories(db, f, categories);
  const row = await applyListFilter(from(db, dialect, f).selectFrom('threads'), dialect, f, part)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const SORT_COLUMN = {
  [ThreadSort.CREATED]: 'threads.createdAt',
  [ThreadSort.LAST_POSTED]: 'threads.lastPostedAt',
  [ThreadSort.HOT]: 'threads.lastPostedAt',
  [ThreadSort.UPDATED]: 'threads.updatedAt',
} as const;

/** One ordered slice of one part of the list. */
async function listPart(
  db: Kysely<DB>,
  dialect: DialectName,
  f: ThreadListFilter,
  part: ListPart,
  offset: number,
  limit: number,
): Promise<ThreadRow[]> {
  const column = SORT_COLUMN[f.sort as keyof typeof SORT_COLUMN] ?? SORT_COLUMN[ThreadSort.CREATED];
  if (f.search && part.viewedRecently === undefined) {
    return (await searchPage(db, dialect, f, f.search, column, offset, limit)).rows;
  }
  let q = applyListFilter(threadsWithAuthor(from(db, dialect, f)), dialect, f, part);
  if (f.search) {
    q = q.select(matchedPostId.as('matchedPostId')).orderBy(titleHit(dialect, f.search.terms), 'desc');
  }
  if (part.viewedRecently) {
    const since = utcDay(HOT_DAYS - 1);
    q = q.orderBy(
      (eb) =>
        eb
          .selectFrom('threadViewsDaily')
          .select((v) => v.fn.sum<number>('threadViewsDaily.views').as('views'))
          .whereRef('threadViewsDaily.threadId', '=', 'threads.id')
          .where('threadViewsDaily.day', '>=', since),
      'desc',
    );
  }
  if (part.stickyFirst) q = q.orderBy('threads.isSticky', 'desc');
  const pinnedOf = f.pinnedOf;
  if (pinnedOf !== undefined && !f.search) {
    q = q.orderBy(
      (eb) =>
        eb
          .case()
          .when(
            'threads.id',
            '=',
            eb
              .selectFrom('userThreadSticks')
              .select('userThreadSticks.threadId')
              .where('userThreadSticks.userId', '=', pinnedOf),
          )
          .then(0)
          .else(1)
          .end(),
      'asc',
    );
  }
  const rows = await q.orderBy(column, 'desc').orderBy('threads.id', 'desc').offset(offset).limit(limit).execute();
  return rows as ThreadRow[];
}

/**
 * A page of search results. The candidates (search.service.ts) are ranked (title hits first, then the list's
 * order), so the ranking sorts only what it needs: the id, the title hit and the sort key of each candidate; the
 * whole rows (summary, author, category) are read for the page's threads only. Sorting whole rows of a thousand
 * candidates was half the time of a search for a common word.
 */
async function searchPage(
  db: Kysely<DB>,
  dialect: DialectName,
  f: ThreadListFilter,
  search: ThreadSearch,
  column: (typeof SORT_COLUMN)[keyof typeof SORT_COLUMN],
  offset: number,
  limit: number,
  withTotal = false,
): Promise<{ rows: ThreadRow[]; total: number | null }> {
  const terms = search.terms;
  // The ranking is a subquery of the page's query, which holds the candidates (`from`): they are found once.
  const ranked = applyListFilter(db.selectFrom('threads'), dialect, f)
    .select(['threads.id as rankedId', `${column} as rankedKey`])
    .select(titleHit(dialect, terms).as('rankedTitleHit'))
    .select(sql<number>`${sql.raw(withTotal ? 'count(*) over ()' : '0')}`.as('rankedTotal'))
    .orderBy('rankedTitleHit', 'desc')
    .orderBy(column, 'desc')
    .orderBy('threads.id', 'desc')
    .offset(offset)
    .limit(limit);
  const rows = await threadsWithAuthor(from(db, dialect, f))
    .innerJoin(ranked.as('ranked'), 'ranked.rankedId', 'threads.id')
    .select('ranked.rankedTotal')
    .select(matchedPostId.as('matchedPostId'))
    .orderBy('ranked.rankedTitleHit', 'desc')
    .orderBy('ranked.rankedKey', 'desc')
    .orderBy('threads.id', 'desc')
    .execute();
  const total = withTotal && rows.length > 0 ? Number(rows[0]!.rankedTotal) : null;
  return { rows: rows.map(({ rankedTotal: _total, ...row }) => row as ThreadRow), total };
}

/**
 * A page of the list and the number of threads in it. A search counts its candidates in the query that ranks them
 * (`count(*) over ()`): one read of them instead of two.
 */
export async function listThreadsPage(
  db: Kysely<DB>,
  dialect: DialectName,
  f: ThreadListFilter,
  offset: number,
  limit: number,
  categories?: readonly Pick<Category, 'id' | 'threadCount'>[],
): Promise<{ rows: ThreadRow[]; totalCount: number }> {
  if (f.search && f.sort !== ThreadSort.HOT) {
    const column = SORT_COLUMN[f.sort as keyof typeof SORT_COLUMN] ?? SORT_COLUMN[ThreadSort.CREATED];
    const page = await searchPage(db, dialect, f, f.search, column, offset, limit, true);
    // A page past the end has no row to carry the total: count then.
    const totalCount = page.total ?? (await countThreads(db, dialect, f, {}, categories));
    return { rows: page.rows, totalCount };
  }
  const [totalCount, rows] = await Promise.all([
    countThreads(db, dialect, f, {}, categories),
    listThreads(db, dialect, f, offset, limit),
  ]);
  return { rows, totalCount };
}

/**
 * A page of the "hot" list: threads viewed in the last days by their views, then the others by last reply. Each
 * part is read in the order of an index, so no query sorts the whole forum.
 */
async function twoPartPage(
  db: Kysely<DB>,
  dialect: DialectName,
  f: ThreadListFilter,
  head: ListPart,
  tail: ListPart,
  offset: number,
  limit: number,
): Promise<ThreadRow[]> {
  // The head is read first: a page that it does not fill tells how long it is, so only a page past its end
  // needs it counted.
  let first: ThreadRow[];
  let headCount: number;
  if (!f.search) {
    const part = await recentlyViewedPage(db, dialect, f, offset, limit);
    if (part.rows.length === limit) return part.rows;
    first = part.rows;
    headCount = part.listed;
  } else {
    first = await listPart(db, dialect, f, head, offset, limit);
    if (first.length === limit) return first;
    headCount = first.length > 0 || offset === 0 ? offset + first.length : await countThreads(db, dialect, f, head);
  }
  const second = await listPart(db, dialect, f, tail, Math.max(0, offset - headCount), limit - first.length);
  return [...first, ...second];
}

/**
 * How many ranked ids a step reads and checks against the list's filters: the first step twice as many as the page
 * reaches down to (at least RANKED_CHUNK_MIN), each next one twice the last, at most RANKED_CHUNK_MAX. The home page's
 * hot column (five threads) reads 20 instead of 200: the ranking's sort answers fewer rows and the filter checks 20
 * ids, about a third of the cost (docs/performance.md, "tenth part").
 */
const RANKED_CHUNK_MIN = 20;
const RANKED_CHUNK_MAX = 3200;

/**
 * The threads viewed in the last HOT_DAYS days, most viewed first (then the newest thread): the hot list's head. The
 * ranking is one read of the (day, thread_id, views) index; the list's filters (deleted, drafts, held, blocked
 * authors, categories) are then checked for the ranked ids a step at a time (each step twice the last), in rank
 * order, until the page is full; only the page's threads are read whole. A correlated sum per thread, sorted, took
 * 22 ms on SQLite and 55 ms on PostgreSQL at 100,000 threads (5,500 viewed that week); this takes a few. Answers the
 * page and, when the ranking ran out before the page was full, how many listed threads the head holds.
 */
async function recentlyViewedPage(
  db: Kysely<DB>,
  dialect: DialectName,
  f: ThreadListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: ThreadRow[]; listed: number }> {
  const since = utcDay(HOT_DAYS - 1);
  // SQLite groups along the primary key (thread_id, day) unless told otherwise (`+` hides the column from the
  // planner), which reads every day ever kept instead of the week's range of the index.
  const groupKey = dialect === 'sqlite' ? sql`+thread_id` : sql`thread_id`;
  const pageIds: number[] = [];
  let listed = 0;
  // Each step reads twice as many ranked ids as the one before (up to RANKED_CHUNK_MAX), so a category with few
  // viewed threads walks the whole week's ranking in a handful of steps.
  for (
    let at = 0, size = Math.min(RANKED_CHUNK_MAX, Math.max(RANKED_CHUNK_MIN, 2 * (offset + limit)));
    pageIds.length < limit;
    at += size, size = Math.min(size * 2, RANKED_CHUNK_MAX)
  ) {
    const { rows: ranked } = await sql<{ threadId: number }>`select thread_id from thread_views_daily
      where day >= ${since} group by ${groupKey} order by sum(views) desc, thread_id desc
      limit ${rowLimit(size)} offset ${at}`.execute(db);
    if (ranked.length === 0) break;
    const chunk = ranked.map((r) => r.threadId);
    const kept = await applyListFilter(db.selectFrom('threads'), dialect, f)
      .select('threads.id')
      .where('threads.id', 'in', chunk)
      .execute();
    const ok = new Set(kept.map((r) => r.id));
    for (const id of chunk) {
      if (!ok.has(id)) continue;
      if (listed >= offset && pageIds.length < limit) pageIds.push(id);
      listed += 1;
    }
    if (ranked.length < size) break;
  }
  if (pageIds.length === 0) return { rows: [], listed };
  const found = await threadsWithAuthor(db).where('threads.id', 'in', pageIds).execute();
  const byId = new Map(found.map((row) => [row.id, row as ThreadRow]));
  const rows = pageIds.map((id) => byId.get(id)).filter((row): row is ThreadRow => row !== undefined);
  return { rows, listed };
}

export async function listThreads(
  db: Kysely<DB>,
  dialect: DialectName,
  f: ThreadListFilter,
  offset: number,
  limit: number,
): Promise<ThreadRow[]> {
  if (f.sort === ThreadSort.HOT) {
    return twoPartPage(db, dialect, f, { viewedRecently: true }, { viewedRecently: false }, offset, limit);
  }
  if (f.stickyFirst) return listPart(db, dialect, f, { stickyFirst: true }, offset, limit);
  return listPart(db, dialect, f, {}, offset, limit);
}

/** The sticky threads of the home page (categoryIds null) or of some categories. */
export function listStickyThreads(db: Kysely<DB>, categoryIds: number[] | null, limit: number): Promise<ThreadRow[]> {
  let q = threadsWithAuthor(db)
    .where('threads.isSticky', '=', 1)
    .where('threads.deletedAt', 'is', null)
    .where('threads.isDraft', '=', 0)
    .where('threads.isApproved', '=', 1);
  if (categoryIds) q = q.where('threads.categoryId', 'in', categoryIds.length > 0 ? categoryIds : [0]);
  return q.orderBy('threads.updatedAt', 'desc').limit(limit).execute() as Promise<ThreadRow[]>;
}

/** The members who have blocked anyone (whose lists leave authors out: kept-lists.ts). */
export async function membersWhoBlocked(db: Kysely<DB>): Promise<ReadonlySet<number>> {
  const rows = await db.selectFrom('userDenies').select('userDenies.userId').distinct().execute();
  return new Set(rows.map((r) => r.userId));
}
