import { Code } from '@luntan/shared';
import type { Redis } from 'ioredis';
import { redisClass } from './redis-client.js';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Database } from '../db/database.js';
import { AppError } from './errors.js';
import { msg } from '../i18n/index.js';

const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Where attempt counters live, so that every app process counts the same attempts (rate-limiter-flexible): Redis when
 * REDIS_URL is set, else the forum's own database (table rate_limits). Nothing is counted in one process's memory
 * alone, except as Redis's stand-in while Redis cannot be reached.
 */
export class LimiterStore {
  private sweeper: NodeJS.Timeout | undefined;

  private constructor(
    private readonly create: (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract,
    private readonly redis: Redis | undefined,
  ) {}

  static open(database: Pick<Database, 'handle' | 'db'>, redisUrl: string | undefined, namespace = ''): LimiterStore {
    const table = { tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: false };
    if (redisUrl) {
      const Redis = redisClass();
      const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
      // A failed connection is retried by ioredis; meanwhile the memory stand-in counts (insuranceLimiter).
      redis.on('error', () => undefined);
      return new LimiterStore(
        (o) =>
          new RateLimiterRedis({
            ...o,
            keyPrefix: `luntan:${namespace}:${o.keyPrefix}`,
            storeClient: redis,
            insuranceLimiter: new RateLimiterMemory(o),
          }),
        redis,
      );
    }
    const { handle } = database;
    const store =
      handle.kind === 'postgres'
        ? new LimiterStore((o) => new RateLimiterPostgres({ ...o, ...table, storeClient: handle.pool }), undefined)
        : new LimiterStore(
            (o) => new RateLimiterSQLite({ ...o, ...table, storeClient: handle.sqlite, storeType: 'better-sqlite3' }),
            undefined,
          );
    // Expired counters are removed now and then (the library's own sweep would outlive a closed database).
    store.sweeper = setInterval(() => {
      database.db
        .deleteFrom('rateLimits')
        .where('expire', '<', Date.now() - 3_600_000)
        .execute()
        .catch(() => undefined);
    }, SWEEP_INTERVAL_MS);
    store.sweeper.unref();
    return store;
  }

  limiter(keyPrefix: string, points: number, durationSeconds: number): RateLimiterAbstract {
    return this.create({ keyPrefix, points, duration: durationSeconds });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

/** A fixed budget of attempts per key (an address) and window, e.g. sign-ups per address per minute. */
export class AttemptLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    store: LimiterStore,
    name: string,
    readonly points: number,
    readonly durationSeconds = 60,
  ) {
    this.limiter = store.limiter(name, points, durationSeconds);
  }

  /** Throws -4029 when the key has used up its attempts. */
  async assertAllowed(key: string): Promise<void> {
    const res = await this.limiter.get(key);
    if (res && res.consumedPoints >= this.points) throw tooMany(res.msBeforeNext);
  }

  /** Counts one attempt and answers whether it was within the budget (no error): e.g. the first view in an hour. */
  async tryConsume(key: string): Promise<boolean> {
    try {
      await this.limiter.consume(key);
      return true;
    } catch (err) {
      if (err instanceof RateLimiterRes) return false;
      throw err;
    }
  }

  /** Counts one attempt; throws -4029 when it goes over the limit. */
  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany(err.msBeforeNext);
      throw err;
    }
  }
}

/** Failed sign-ins an account may have before it has to wait between attempts. */
export const LOGIN_FREE_FAILURES = 5;
/** The longest wait between two attempts on one account, seconds. */
export const LOGIN_MAX_WAIT_SECONDS = 300;
/** Failures are forgotten this long after an account's first failure (and at once on a successful sign-in). */
const LOGIN_FAILURE_MEMORY_SECONDS = 24 * 3600;

/** The wait after an account's `failures`-th consecutive failure: none, then 1 s, doubling up to five minutes. */
export function loginWaitSeconds(failures: number): number {
  if (failures <= LOGIN_FREE_FAILURES) return 0;
  return Math.min(LOGIN_MAX_WAIT_SECONDS, 2 ** (failures - LOGIN_FREE_FAILURES - 1));
}

/** The key of an account's failed sign-ins: every name that signs in to it (username, bound number) counts there. */
export const loginAccountKey = (userId: number): string => `user:${userId}`;

/** The key of a login name that matches no account: guessing at names nobody has waits the same way. */
export const loginNameKey = (normalizedName: string): string => `name:${normalizedName}`;

/**
 * Failed sign-ins, counted per address (a budget per minute: one address guessing many accounts) and per account
 * (any address: many addresses guessing one account). An account is never locked: after a few failures each further
 * attempt must wait a little longer than the last (1 s, 2 s, 4 s ... 5 min), so its owner can still sign in while a
 * guesser gets a few hundred tries a day at most. A successful sign-in clears the account's count.
 */
export class LoginThrottle {
  private readonly address: AttemptLimiter;
  private readonly failures: RateLimiterAbstract;
  private readonly addressFailures: RateLimiterAbstract;
  private readonly wait: RateLimiterAbstract;

  constructor(store: LimiterStore, failuresPerAddressPerMinute: number) {
    this.address = new AttemptLimiter(store, 'login_ip', failuresPerAddressPerMinute);
    this.failures = store.limiter('login_fail', 1_000_000, LOGIN_FAILURE_MEMORY_SECONDS);
    this.addressFailures = store.limiter('login_fail_ip', 1_000_000, LOGIN_FAILURE_MEMORY_SECONDS);
    this.wait = store.limiter('login_wait', 1, 1);
  }

  /** Throws -4029 while the address has no attempts left or one of the accounts must still wait. */
  async assertAllowed(ip: string, accounts: readonly string[]): Promise<void> {
    await this.address.assertAllowed(ip);
    const waits = await Promise.all(accounts.map((account) => this.wait.get(account)));
    const ms = Math.max(0, ...waits.map((w) => (w && w.consumedPoints > 1 ? w.msBeforeNext : 0)));
    if (ms > 0) throw tooMany(ms);
  }

  /**
   * Counts a failure against the address and each account (every account the name could sign in to was tried with
   * the password); from an account's sixth failure it must wait before the next.
   */
  async recordFailure(ip: string, accounts: readonly string[]): Promise<void> {
    for (const account of accounts) {
      const counted = await this.failures.penalty(account, 1);
      const seconds = loginWaitSeconds(counted.consumedPoints);
      if (seconds > 0) await this.wait.block(account, seconds);
    }
    await this.addressFailures.penalty(ip, 1);
    await this.address.consume(ip);
  }

  /** Failures in a row of the accounts (the most of any), and of the address (cleared by a sign-in from it). */
  async consecutiveFailures(ip: string, accounts: readonly string[]): Promise<{ account: number; address: number }> {
    const [byAccount, byAddress] = await Promise.all([
      Promise.all(accounts.map((account) => this.failures.get(account))),
      this.addressFailures.get(ip),
    ]);
    return {
      account: Math.max(0, ...byAccount.map((r) => r?.consumedPoints ?? 0)),
      address: byAddress?.consumedPoints ?? 0,
    };
  }

  async recordSuccess(account: string, ip?: string): Promise<void> {
    await Promise.all([
      this.failures.delete(account),
      this.wait.delete(account),
      ip === undefined ? undefined : this.addressFailures.delete(ip),
    ]);
  }
}

function tooMany(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(Code.TOO_MANY_REQUESTS, msg('core.tooManyAttemptsWait', { seconds }), {
    httpStatus: 429,
    headers: { 'retry-after': String(seconds) },
    data: { retryAfter: seconds },
  });
}
