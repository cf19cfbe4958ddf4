import { ThreadComplex } from '@luntan/shared';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context.js';
import { VersionedValue } from '../../core/cache-versions.js';
import { PAGE_LISTS_VERSION, PAGES_VERSION } from '../../core/page-cache.js';
import type { Category } from '../../db/schema.js';
import { listThreadsPage, membersWhoBlocked, type ThreadListFilter } from './thread-list.repository.js';
import { listMarks, type ListMarks } from './threads.presenter.js';
import type { ThreadRow } from './threads.repository.js';

/** A page of a list as every viewer who blocked nobody gets it: its threads, their number, their parts and pins. */
export interface ListSlice {
  rows: readonly ThreadRow[];
  totalCount: number;
  marks: ListMarks;
}

/** The kept slices' budget, in threads (a thread's row is about a kilobyte). */
const LIST_KEEP_THREADS = 10_000;

/**
 * Pages of the thread lists kept in the process, the part of a thread.list answer that does not depend on who asks
 * (Discourse keeps its anonymous topic lists; NodeBB its sorted sets): the page's rows, the list's count, the
 * threads' parts and pins. What the viewer adds (liked, favourited, bought, what they may do, an anonymous author
 * shown to an administrator) is still read and presented per request (threads.presenter.ts).
 *
 * A slice is kept under the `pages` and `pages:lists` counters read at the start of the request: they move after
 * every write that may show on a list, in any process (core/page-cache.ts, the kept pages' own rule), so a member
 * sees their reply, like or new thread on the next call. Kept only where those counters are kept up (the kept pages
 * on: GUEST_CACHE_MS above 0), for LIST_KEEP_MS at most (5 s by default): views move a thread's count and the hot
 * list's order without any counter (counting a view is not a write that stales pages: core/guest-cache.ts), and so do
 * writes made straight to the database; they show within that time.
 *
 * Shared by viewers, so only lists that are the same for all of them: not a search, not a member's own lists (drafts,
 * likes, favourites, their threads with those held for review), and not for a viewer who blocked someone (their
 * lists leave those authors out: the `denies` counter, migration 2026113001, keeps the set of who blocked anyone).
 */
export class KeptLists {
  /** null: nothing is kept (LIST_KEEP_MS=0, or the kept pages' counters are not kept up). */
  private readonly slices: LRUCache<string, ListSlice> | null;
  /** Who has blocked anyone (user_denies.user_id). */
  private readonly blockers: VersionedValue<ReadonlySet<number>>;

  constructor(private readonly ctx: AppContext) {
    this.slices =
      ctx.config.listKeepMs > 0 && ctx.pages.enabled
        ? new LRUCache<string, ListSlice>({
            maxSize: LIST_KEEP_THREADS,
            sizeCalculation: (slice) => slice.rows.length + 1,
            ttl: ctx.config.listKeepMs,
            ttlAutopurge: false,
          })
        : null;
    this.blockers = new VersionedValue(ctx.versions, 'denies', () => membersWhoBlocked(ctx.db));
  }

  /**
   * The page at `offset` of the list `f`: kept, or read (and kept when every viewer who blocked nobody would get the
   * same). `categories`: the categories just read, whose counters give the count of an unfiltered list.
   */
  async page(f: ThreadListFilter, offset: number, limit: number, categories: readonly Category[]): Promise<ListSlice> {
    const shared = await this.sharedFilter(f);
    if (!shared) return readSlice(this.ctx, f, offset, limit, categories);
    // Not kept, the list is still read as the one every viewer who blocked nobody gets: the same rows, without the
    // statement that counts the blocked authors' threads (a member's home page: two round trips on PostgreSQL).
    if (!this.slices) return readSlice(this.ctx, shared, offset, limit, categories);
    const key = `${this.ctx.versions.get(PAGES_VERSION)}.${this.ctx.versions.get(PAGE_LISTS_VERSION)} ${JSON.stringify([shared, offset, limit])}`;
    const kept = this.slices.get(key);
    if (kept) return kept;
    const slice = await readSlice(this.ctx, shared, offset, limit, categories);
    this.slices.set(key, slice);
    return slice;
  }

  /** The filter as a viewer who blocked nobody would have it, when the list is the same for all of them; else null. */
  private async sharedFilter(f: ThreadListFilter): Promise<ThreadListFilter | null> {
    if (f.search) return null;
    if (f.complex !== undefined && f.complex !== ThreadComplex.BY_USER) return null;
    if (f.viewerId === null) return f;
    if (f.toUserId === f.viewerId) return null;
    if ((await this.blockers.get()).has(f.viewerId)) return null;
    return { ...f, viewerId: null };
  }
}

async function readSlice(
  ctx: AppContext,
  f: ThreadListFilter,
  offset: number,
  limit: number,
  categories: readonly Category[],
): Promise<ListSlice> {
  const { rows, totalCount } = await listThreadsPage(ctx.db, ctx.dialect, f, offset, limit, categories);
  const marks = await listMarks(ctx.db, rows);
  // Shared by the requests that find it: read, never changed.
  for (const row of rows) Object.freeze(row);
  for (const parts of marks.parts.values()) Object.freeze(parts);
  return { rows: Object.freeze(rows), totalCount, marks };
}

const kept = new WeakMap<AppContext, KeptLists>();

/** The forum's kept lists (one per app). */
export function keptListsOf(ctx: AppContext): KeptLists {
  let lists = kept.get(ctx);
  if (!lists) {
    lists = new KeptLists(ctx);
    kept.set(ctx, lists);
  }
  return lists;
}
