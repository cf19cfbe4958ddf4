import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DB } from '../db/schema.js';
import { bumpCacheVersion, type CacheVersions } from './cache-versions.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The `cache_versions` counter every kept page's key carries: raised by every write (see PageCache). */
export const PAGES_VERSION = 'pages';

/** How long a kept page lives at most, in memory and in Redis: a safety net for changes no write announced. */
const PAGE_KEEP_SECONDS = 3600;

/** The memory a process gives to kept pages (all three encodings of each). */
const MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;

/** A rendered page as kept: its headers and its bytes, plain and compressed once. */
export interface KeptPage {
  headers: Record<string, string>;
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Where a page that was served came from. */
type PageSource = 'memory' | 'redis';

/**
 * Rendered pages kept until the site changes (Discourse's anonymous cache, Varnish with a purge on write): a guest's
 * page, or a member's page rendered for a set of groups (modules/web/group-render.ts), keyed by what the render reads
 * (address, language, layout, groups: modules/web/web.routes.ts) and by the `pages` counter of `cache_versions`.
 *
 * Every successful write raises that counter after it committed (the /api write hook of core/guest-cache.ts), and so
 * does every pass of the event dispatcher that delivered something (what subscribers wrote: the search index, topic
 * counts). Every page request reads the counters first (core/cache-versions.ts), so a page kept under an older number
 * is never found again, in this process or any other, and a render that began before a write is kept under the number
 * it read. Writes straight to the database that raise no counter show after at most PAGE_KEEP_SECONDS.
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

  constructor(
    enabled: boolean,
    private readonly db: Kysely<DB>,
    private readonly versions: CacheVersions,
    options: { redisUrl?: string | undefined; namespace: string },
  ) {
    this.memory = enabled
      ? new LRUCache<string, KeptPage>({
          maxSize: MEMORY_BUDGET_BYTES,
          sizeCalculation: (page, key) => page.plain.length + page.br.length + page.gzip.length + key.length,
          ttl: PAGE_KEEP_SECONDS * 1000,
          ttlAutopurge: false,
        })
      : null;
    this.redis =
      enabled && options.redisUrl
        ? new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
        : null;
    // Redis being away costs only sharing: each process keeps its own pages meanwhile.
    this.redis?.on('error', () => undefined);
    this.prefix = `luntan:pages:${options.namespace}:`;
  }

  get enabled(): boolean {
    return this.memory !== null;
  }

  /**
   * The key a page is kept under: its own key and the `pages` number read at the start of this request (the caller
   * has refreshed `versions`).
   */
  keyOf(pageKey: string): { key: string; version: number } {
    const version = this.versions.get(PAGES_VERSION);
    if (version > this.seen) {
      this.seen = version;
      this.memory?.clear();
    }
    return { key: `${version} ${pageKey}`, version };
  }

  /** The kept page, from this process's memory or else from Redis (then kept in memory too). */
  async get(key: string): Promise<{ page: KeptPage; source: PageSource } | undefined> {
    const local = this.memory?.get(key);
    if (local) return { page: local, source: 'memory' };
    if (!this.redis) return undefined;
    const shared = await this.redis.hgetallBuffer(this.redisKey(key)).catch(() => null);
    if (!shared?.plain || !shared.br || !shared.gzip || !shared.headers) return undefined;
    const page: KeptPage = {
      headers: JSON.parse(shared.headers.toString('utf8')) as Record<string, string>,
      plain: shared.plain,
      br: shared.br,
      gzip: shared.gzip,
    };
    this.memory?.set(key, page);
    return { page, source: 'redis' };
  }

  /** Compresses the page once and keeps it, here and in Redis; answers what was kept. */
  async set(key: string, version: number, html: string, headers: Record<string, string>): Promise<KeptPage> {
    const plain = Buffer.from(html, 'utf8');
    // Brotli 6: about 12 ms for a 100 KB page, 1 % larger than quality 9 at a third of its time (11 takes half a
    // second); the visitor whose request keeps the page waits for it.
    const [br, gz] = await Promise.all([
      brotli(plain, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
        },
      }),
      gzip(plain, { level: 9 }),
    ]);
    const page: KeptPage = { headers, plain, br, gzip: gz };
    // A render that began under an older number is not kept: its key can no longer be asked for.
    if (version < this.seen) return page;
    this.memory?.set(key, page);
    if (this.redis) {
      const name = this.redisKey(key);
      await this.redis
        .multi()
        .hset(name, { headers: JSON.stringify(headers), plain, br, gzip: gz })
        .expire(name, PAGE_KEEP_SECONDS)
        .exec()
        .catch(() => undefined);
    }
    return page;
  }

  /** After a write has committed: every page kept so far is stale, in every process. */
  async noteWrite(): Promise<void> {
    if (!this.memory) return;
    await bumpCacheVersion(this.db, PAGES_VERSION);
    this.memory.clear();
  }

  async close(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }

  private redisKey(key: string): string {
    return this.prefix + createHash('sha256').update(key).digest('base64url');
  }
}

/**
 * Sends a kept page in the encoding the client prefers, as it was compressed when kept. `vary` tells shared caches
 * that the address answers other bytes to other clients.
 */
export function sendKeptPage(request: FastifyRequest, reply: FastifyReply, page: KeptPage): FastifyReply {
  // Chosen as @fastify/compress chooses (core/compression.ts): brotli on a tie, else gzip, else the plain bytes.
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? negotiate(accepted, ['br', 'gzip']) : null;
  for (const [name, value] of Object.entries(page.headers)) reply.header(name, value);
  reply.header('vary', 'accept-encoding').type('text/html; charset=utf-8');
  if (encoding === 'br' || encoding === 'gzip') {
    reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? page.br : page.gzip);
  }
  return reply.send(page.plain);
}
