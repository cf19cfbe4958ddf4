import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { redisClass } from './redis-client.js';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { DomainEventName } from '@luntan/shared';
import { bumpCacheVersion, type CacheVersions } from './cache-versions.js';
import { ANSWER_BROTLI_QUALITY } from './compression.js';
import type { DeliveredChange, EmittedEvent } from './events/event-bus.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const unbrotli = promisify(zlib.brotliDecompress);

/** The `cache_versions` counter every kept page's key carries: raised by a write that may show anywhere. */
export const PAGES_VERSION = 'pages';
/** The `cache_versions` counter the pages other than a thread's carry: raised by every write (see PageCache). */
export const PAGE_LISTS_VERSION = 'pages:lists';

/**
 * What a write may have changed on the forum's pages: anything (`'site'`), or the pages of a few threads and the
 * pages listing threads.
 */
export type PageScope = 'site' | { threads: readonly number[] };

/**
 * The events whose change shows only on the pages of the thread their payload names (threadId) and on the lists
 * (its counts, its place, its summary; topics and the search index through the subscribers): what a thread page
 * shows is that thread, its posts and their authors' names and avatars, its category's name and the site (the
 * viewer's own bits are filled in by the browser). A category's name, a member's name or avatar, permissions and
 * settings change by writes that announce no such event, which stale every page.
 */
const THREAD_EVENTS: ReadonlySet<DomainEventName> = new Set<DomainEventName>([
  'thread.created',
  'thread.updated',
  'thread.moderated',
  'thread.restored',
  'post.created',
  'post.updated',
  'post.liked',
  'post.moderated',
  'post.restored',
  'post.rerendered',
  'bounty.awarded',
  'bounty.expired',
  'bounty.expiry_due',
  'red_packet.received',
  'red_packet.expiry_due',
  // A thread's order (bought, rewarded, a red packet funded); with no thread (the joining fee) it may show anywhere.
  'order.paid',
]);

/**
 * The events whose change shows on no thread's page: a member's follower counts (on profiles and in search), private
 * messages and notices (on their members' own pages, never kept). The lists are staled all the same (cheap, and on the safe side).
 */
const NO_THREAD_EVENTS: ReadonlySet<DomainEventName> = new Set<DomainEventName>([
  'user.followed',
  'dialog.message.sent',
  'dialog.message.approved',
  'dialog.read',
  // A notice in a member's message centre (a page of their own, never kept).
  'notification.created',
]);

/** More threads than this in one write: cheaper to start every page afresh. */
const MAX_THREADS_PER_WRITE = 200;

/**
 * Where the changes behind `events` show: the threads they name and the lists, or the whole site when one of them is
 * of another kind, names no thread, or there is none (a write that announced nothing may have changed anything).
 */
export function pageScopeOf(events: readonly EmittedEvent[] | null | undefined): PageScope {
  if (!events || events.length === 0) return 'site';
  const threads = new Set<number>();
  for (const { name, payload } of events) {
    if (NO_THREAD_EVENTS.has(name)) continue;
    const threadId = THREAD_EVENTS.has(name) ? threadIdOf(payload) : null;
    if (threadId === null) return 'site';
    threads.add(threadId);
  }
  if (threads.size > MAX_THREADS_PER_WRITE) return 'site';
  return { threads: [...threads].sort((a, b) => a - b) };
}

/** Where what a pass of the event dispatcher delivered shows: its events' scope, unless a subscriber may write anywhere. */
export function deliveredScopeOf(delivered: readonly DeliveredChange[]): PageScope {
  return delivered.some((change) => change.reach !== 'event') ? 'site' : pageScopeOf(delivered);
}

function threadIdOf(payload: unknown): number | null {
  const value = (payload as { threadId?: unknown } | null)?.threadId;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/**
 * How a kept page is compressed (PageCache.set), and a first visitor's page as it is streamed (modules/web). A 64 kB
 * window instead of the default 4 MB: each encoder allocates and zeroes hash tables sized by its window, and with
 * the allocator's setting of scripts/start.sh every encoder's memory is mapped fresh, so that was most of a page's
 * compression. Measured on this project's pages (docs/performance.md,
 * "sixth part"): a 14 kB thread page streamed 1.26 → 0.49 ms of CPU, a 92 kB home page 1.81 → 1.10 ms, the bytes
 * within 0.1 % (3,808 → 3,811 and 9,809 → 9,816), since pages this size barely reach back further.
 */
export const PAGE_BROTLI_PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  [zlib.constants.BROTLI_PARAM_LGWIN]: 16,
};
export const PAGE_GZIP_LEVEL = 9;
/**
 * How a page sent once and never kept is compressed (a member's own render, a paid thread, every page while the kept
 * pages are off): at the quality of every other answer made for one request (core/compression.ts), with the pages'
 * window. Quality 6 pays for itself only when the bytes are sent again and again. On this project's pages
 * (docs/performance.md, twelfth part): the home page 1.0 → 0.6 ms of CPU for 10.7 → 11.8 kB, a thread page of ten
 * replies 0.66 → 0.38 ms for 7.0 → 8.2 kB.
 */
export const ONCE_BROTLI_PARAMS = {
  ...PAGE_BROTLI_PARAMS,
  [zlib.constants.BROTLI_PARAM_QUALITY]: ANSWER_BROTLI_QUALITY,
};
/** zlib's default level, as @fastify/compress gives every other answer. */
export const ONCE_GZIP_LEVEL = zlib.constants.Z_DEFAULT_COMPRESSION;

/** How long a kept page lives at most, in memory and in Redis: a safety net for changes no write announced. */
const PAGE_KEEP_SECONDS = 3600;

/** The memory a process gives to kept pages (both encodings of each). */
const MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * A rendered page as kept: its headers and its bytes compressed once, as brotli and gzip. Not the plain bytes: they
 * were four fifths of a kept page's memory (a thread page of 92 kB keeps 10 kB of brotli and 14 of gzip) for the
 * few clients that accept neither, whose copy is decompressed from the brotli when they ask (about 0.2 ms).
 */
export interface KeptPage {
  headers: Record<string, string>;
  br: Buffer;
  gzip: Buffer;
}

/** Where a page that was served came from. */
type PageSource = 'memory' | 'redis';

/**
 * Rendered pages kept until what they show changes (Discourse's anonymous cache, Varnish with a purge on write): a
 * guest's page, or a member's page rendered for a set of groups (modules/web/group-render.ts), keyed by what the
 * render reads (address, language, layout, groups: modules/web/web.routes.ts) and by counters:
 *
 * - every page carries the site's `pages` counter (`cache_versions`);
 * - a thread's page (/thread/<id>, any page number) carries its thread's own counter (`thread_page_versions`, read by
 *   key when the page is asked for), every other page the `pages:lists` counter (`cache_versions`): the home page,
 *   categories, topics, search, profiles all list threads.
 *
 * Every successful write raises counters after it committed (the /api write hook of core/guest-cache.ts), and so does
 * every pass of the event dispatcher that delivered something (what subscribers wrote: the search index, topic
 * counts). Which ones, the domain events tell (pageScopeOf): what a write request emitted (EventBus.recordWrites), what
 * a pass delivered. When all of them name threads whose change shows only on those threads' pages and the lists (a
 * reply, a like, an edit, a deletion, a moderation), those threads' counters and `pages:lists` are raised, and every
 * other thread's kept pages stay, whatever their category (a thread page shows its category's name only, and renaming
 * a category announces no such event); a follow or a private message raises `pages:lists` only. Anything else, a write that emitted nothing (settings, groups, permissions,
 * categories, a member's name or avatar, favourites...), an event of another kind, a subscriber that may write
 * anywhere, raises `pages`: every kept page is stale and this process's memory of them is freed.
 *
 * Every page request reads the counters first (core/cache-versions.ts), so a page kept under an older number is never
 * found again, in this process or any other, and a render that began before a write is kept under the number it
 * read. Writes straight to the database that raise no counter show after at most PAGE_KEEP_SECONDS.
 *
 * Kept in this process's memory within a byte budget (least recently used first out) and, with REDIS_URL, in Redis
 * too, so every process serves what one rendered. Each page is compressed once when kept (brotli 6 and gzip 9, on
 * the thread pool) and sent as it is, with `content-encoding` and `vary: accept-encoding`; the answer's own
 * compression (@fastify/compress) leaves an encoded answer alone.
 */
export class PageCache {
  private readonly memory: LRUCache<string, KeptPage> | null;
  private readonly redis: Redis | null;
  /** This forum's Redis keys: other forums on the same Redis keep theirs apart. */
  private readonly prefix: string;
  /** The newest `pages` number this process has seen: when it moves, the memory of older pages is freed. */
  private seen = 0;
  /** A thread's counter, read by key (a prepared statement on SQLite, one round trip on PostgreSQL). */
  private readonly readThreadVersion: (threadId: number) => Promise<number> | number;

  constructor(
    enabled: boolean,
    private readonly db: Kysely<DB>,
    private readonly versions: CacheVersions,
    options: { redisUrl?: string | undefined; namespace: string; handle: Database['handle'] },
  ) {
    this.readThreadVersion = threadVersionReader(options.handle);
    this.memory = enabled
      ? new LRUCache<string, KeptPage>({
          maxSize: MEMORY_BUDGET_BYTES,
          sizeCalculation: (page, key) => page.br.length + page.gzip.length + key.length,
          ttl: PAGE_KEEP_SECONDS * 1000,
          ttlAutopurge: false,
        })
      : null;
    this.redis =
      enabled && options.redisUrl
        ? new (redisClass())(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
        : null;
    // Redis being away costs only sharing: each process keeps its own pages meanwhile.
    this.redis?.on('error', () => undefined);
    this.prefix = `luntan:pages:${options.namespace}:`;
  }

  get enabled(): boolean {
    return this.memory !== null;
  }

  /**
   * The key a page is kept under: its own key, the `pages` number read at the start of this request (the caller has
   * refreshed `versions`), and its thread's counter (read now) for a page of thread `threadId`, else `pages:lists`.
   */
  async keyOf(pageKey: string, threadId: number | null): Promise<{ key: string; version: number }> {
    const version = this.versions.get(PAGES_VERSION);
    if (version > this.seen) {
      this.seen = version;
      this.memory?.clear();
    }
    const part =
      threadId === null
        ? `l${this.versions.get(PAGE_LISTS_VERSION)}`
        : `t${threadId}.${await this.readThreadVersion(threadId)}`;
    return { key: `${version} ${part} ${pageKey}`, version };
  }

  /** The kept page, from this process's memory or else from Redis (then kept in memory too). */
  async get(key: string): Promise<{ page: KeptPage; source: PageSource } | undefined> {
    const local = this.memory?.get(key);
    if (local) return { page: local, source: 'memory' };
    if (!this.redis) return undefined;
    const shared = await this.redis.hgetallBuffer(this.redisKey(key)).catch(() => null);
    if (!shared?.br || !shared.gzip || !shared.headers) return undefined;
    const page: KeptPage = {
      headers: JSON.parse(shared.headers.toString('utf8')) as Record<string, string>,
      br: shared.br,
      gzip: shared.gzip,
    };
    this.memory?.set(key, page);
    return { page, source: 'redis' };
  }

  /**
   * Compresses the page once and keeps it, here and in Redis; answers what was kept. `body`: its text, or its bytes
   * in UTF-8. `compressed`: an encoding made elsewhere (the bytes a first visitor is streamed,
   * modules/web/stream-page.ts), kept as it is.
   */
  async set(
    key: string,
    version: number,
    body: string | Buffer,
    headers: Record<string, string>,
    compressed: { br?: Promise<Buffer> | undefined; gzip?: Promise<Buffer> | undefined } = {},
  ): Promise<KeptPage> {
    const plain = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    // Brotli 6: about 12 ms for a 100 KB page, 1 % larger than quality 9 at a third of its time (11 takes half a
    // second); the visitor whose request keeps the page waits for it.
    const [br, gz] = await Promise.all([
      compressed.br ??
        brotli(plain, { params: { ...PAGE_BROTLI_PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length } }),
      compressed.gzip ?? gzip(plain, { level: PAGE_GZIP_LEVEL }),
    ]);
    const page: KeptPage = { headers, br, gzip: gz };
    // A render that began under an older number is not kept: its key can no longer be asked for.
    if (version < this.seen) return page;
    this.memory?.set(key, page);
    if (this.redis) {
      const name = this.redisKey(key);
      await this.redis
        .multi()
        .hset(name, { headers: JSON.stringify(headers), br, gzip: gz })
        .expire(name, PAGE_KEEP_SECONDS)
        .exec()
        .catch(() => undefined);
    }
    return page;
  }

  /**
   * After a write has committed: the pages kept so far that show what it changed (`scope`) are stale, in every
   * process.
   */
  async noteWrite(scope: PageScope = 'site'): Promise<void> {
    if (!this.memory) return;
    if (scope === 'site') {
      await bumpCacheVersion(this.db, PAGES_VERSION);
      this.memory.clear();
      return;
    }
    const { threads } = scope;
    // Together: a list must not stay older than a thread it lists.
    await this.db.transaction().execute(async (trx) => {
      if (threads.length > 0) await bumpThreadPageVersions(trx, threads);
      await bumpCacheVersion(trx, PAGE_LISTS_VERSION);
    });
  }

  async close(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }

  private redisKey(key: string): string {
    return this.prefix + createHash('sha256').update(key).digest('base64url');
  }
}

/** Reads a thread's counter by key, without the query builder: every kept thread page served asks it once. */
function threadVersionReader(handle: Database['handle']): (threadId: number) => Promise<number> | number {
  const query = 'select version from thread_page_versions where thread_id = ';
  if (handle.kind === 'sqlite') {
    const statement = handle.sqlite.prepare<[number], { version: number }>(`${query}?`);
    return (threadId) => Number(statement.get(threadId)?.version ?? 0);
  }
  const { pool } = handle;
  return async (threadId) => {
    const { rows } = await pool.query<{ version: number }>({
      name: 'thread_page_version',
      text: `${query}$1`,
      values: [threadId],
    });
    return Number(rows[0]?.version ?? 0);
  };
}

/** Raises the threads' counters (in ascending order: two writes at once take the rows' locks in the same order). */
async function bumpThreadPageVersions(db: Kysely<DB>, threadIds: readonly number[]): Promise<void> {
  await db
    .insertInto('threadPageVersions')
    .values(threadIds.map((threadId) => ({ threadId, version: 1 })))
    .onConflict((oc) =>
      oc.column('threadId').doUpdateSet((eb) => ({ version: eb('threadPageVersions.version', '+', 1) })),
    )
    .execute();
}

/**
 * The encoding a page is sent in: chosen as @fastify/compress chooses (core/compression.ts), brotli on a tie, else
 * gzip, else the plain bytes.
 */
export function pageEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? negotiate(accepted, ['br', 'gzip']) : null;
  return encoding === 'br' || encoding === 'gzip' ? encoding : null;
}

/**
 * Sends a kept page (or feed) in the encoding the client prefers, as it was compressed when kept. `vary` tells shared caches
 * that the address answers other bytes to other clients.
 */
export async function sendKeptPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: KeptPage,
): Promise<FastifyReply> {
  const encoding = pageEncoding(request);
  for (const [name, value] of Object.entries(page.headers)) reply.header(name, value);
  // A page is HTML unless it was kept with its own type (a feed: modules/feeds).
  reply.header('vary', 'accept-encoding');
  if (!('content-type' in page.headers)) reply.type('text/html; charset=utf-8');
  if (encoding === 'br' || encoding === 'gzip') {
    reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? page.br : page.gzip);
  }
  return reply.send(await unbrotli(page.br));
}
