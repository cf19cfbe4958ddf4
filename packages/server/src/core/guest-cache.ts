import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache, type Perf } from 'lru-cache';
import { chosenLocale } from './i18n.js';
import { defineTopic, type SignalBus } from './signals.js';

/** "What guests were told may be stale": raised by a successful write in any process. */
const GUEST_ANSWERS_STALE = defineTopic<null>('guest-cache');

/**
 * A short-lived cache of what guests read (the "microcache" of nginx, Discourse's anonymous cache): a guest's answer
 * to a public read depends only on the address and the language, so for `ttlMs` the same question gets the same
 * answer without touching the database. Signed-in viewers are never served from it (their answers carry what they
 * may do, whom they blocked...).
 *
 * It stays right because every successful write clears it (a non-GET under /api answering Code 0, except counting a
 * view) once it has committed, in this process at once and in the forum's other processes through the signal bus
 * (core/signals.ts), and an answer of a read that began before that is not stored. Writes straight to the database
 * (the demo seeder), and other processes' writes while the bus is down, show after at most `ttlMs`: guests may see
 * a new thread up to a second late, a signed-in author never does. `GUEST_CACHE_MS=0` turns it off.
 */
export class GuestAnswerCache {
  private readonly answers: LRUCache<string, string> | null;
  /** Raised by every successful write; an answer is kept only if no write ended while it was computed. */
  private generation = 0;
  /** What else every successful write must be followed by (the kept pages' counters: core/page-cache.ts). */
  private readonly afterWrites: ((request: FastifyRequest | null) => Promise<void>)[] = [];

  constructor(
    readonly ttlMs: number,
    private readonly signals: SignalBus,
    /** What the lifetimes are measured with (tests hand in a clock they move). */
    clock: Perf = performance,
  ) {
    this.answers =
      ttlMs > 0
        ? new LRUCache<string, string>({
            ttl: ttlMs,
            ttlAutopurge: false,
            perf: clock,
            // The clock is read at every lookup (cheap): lru-cache would otherwise reuse a reading until a timer
            // clears it, which outlasts a test's move of its clock.
            ttlResolution: 0,
            maxSize: 32 * 1024 * 1024,
            sizeCalculation: (answer, key) => answer.length + key.length,
          })
        : null;
    if (this.answers) signals.subscribe(GUEST_ANSWERS_STALE, () => this.invalidate());
  }

  get enabled(): boolean {
    return this.answers !== null;
  }

  /**
   * Runs `task` after every successful write too, before the writer has its answer: given the write request (what
   * it emitted: request.emittedEvents), or null for a change made outside any request.
   */
  afterWrite(task: (request: FastifyRequest | null) => Promise<void>): void {
    this.afterWrites.push(task);
  }

  /** Forgets every answer in every process of the forum; called after every successful write (`request`'s, if any). */
  async invalidateEverywhere(request: FastifyRequest | null = null): Promise<void> {
    if (!this.answers) return;
    await Promise.all([
      this.signals.publish(GUEST_ANSWERS_STALE, null),
      ...this.afterWrites.map((task) => task(request)),
    ]);
  }

  /** Forgets every answer in this process. */
  invalidate(): void {
    this.generation += 1;
    this.answers?.clear();
  }

  get(key: string): string | undefined {
    return this.answers?.get(key);
  }

  /** The generation an answer computed from now on must still see to be stored. */
  current(): number {
    return this.generation;
  }

  set(key: string, since: number, answer: string): void {
    if (this.answers && since === this.generation) this.answers.set(key, answer);
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public read whose answer to a guest may be served from the guest cache. */
    guestCache?: boolean;
  }
  interface FastifyRequest {
    /** Set when this guest read may be stored: the cache key and the generation it started in. */
    guestCacheEntry?: { key: string; since: number };
  }
}

/**
 * Calls that write only counters a guest may see a second late, or nothing any page or public answer shows, and so
 * clear neither the guest answers nor the kept pages: a view counted; signing in with a password and signing out
 * (a session made or ended, failed attempts and a rehashed password: no page shows them, and a session's viewer is
 * resolved again through the `viewers` counter). On a busy forum they are most of the writes; each would otherwise
 * make every kept page stale. Signing in by SMS or WeChat may register an account, so it stays a write.
 */
const KEEPS_CACHE = new Set(['/api/v3/view.count', '/api/v3/users/username.login', '/api/v3/users/logout']);

/** Every success answer starts so; the tail from `,"RequestId":` on is per request. */
const SUCCESS_PREFIX = '{"Code":0,';
const TAIL = ',"RequestId":';

/**
 * The cache's hooks on /api. `onRequest` must run before the viewer is resolved: a hit answers without any
 * database read. Answers keep their envelope but get this request's RequestId and RequestTime.
 */
export function registerGuestCache(
  api: FastifyInstance,
  cache: GuestAnswerCache,
  /**
   * Whether the request is not a guest's: it carries a session, or it is a page rendered for a set of groups (they
   * read as those groups, modules/web/group-render.ts). Given by the app's assembly (api.ts), so that core/ needs
   * neither the access floor nor a feature module.
   */
  isNotGuest: (request: FastifyRequest) => boolean,
): void {
  if (!cache.enabled) return;

  api.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET') return;
    if (!request.routeOptions.config.guestCache || isNotGuest(request)) return;
    // The language is the visitor's choice or, for everyone who chose none, the site's default: a change of that
    // setting is a write, which clears the cache.
    const key = `${chosenLocale(request) ?? 'site'} ${request.url}`;
    const stored = cache.get(key);
    if (stored === undefined) {
      request.guestCacheEntry = { key, since: cache.current() };
      reply.header('x-guest-cache', 'miss');
      return;
    }
    reply.header('x-guest-cache', 'hit').type('application/json; charset=utf-8');
    return reply.send(`${stored}${TAIL}${JSON.stringify(request.id)},"RequestTime":"${new Date().toISOString()}"}`);
  });

  api.addHook('onSend', async (request, reply, payload) => {
    const succeeded = reply.statusCode === 200 && typeof payload === 'string' && payload.startsWith(SUCCESS_PREFIX);
    if (request.method === 'GET') {
      const entry = request.guestCacheEntry;
      const tail = succeeded ? (payload as string).lastIndexOf(TAIL) : -1;
      if (entry && tail > 0) cache.set(entry.key, entry.since, (payload as string).slice(0, tail));
    } else if (succeeded && request.method !== 'HEAD' && !KEEPS_CACHE.has(routeOf(request))) {
      // A write has been committed (handlers answer after their transaction): forget what guests were told, and
      // (through the generation) refuse answers of reads that began before it. A refused or failed call changes
      // nothing, so a flood of bad requests cannot keep the cache empty.
      // Awaited so that the other processes are told before the writer has its answer.
      await cache.invalidateEverywhere(request);
    }
    return payload;
  });
}

const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? '';
