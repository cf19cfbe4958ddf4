import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.js';

/**
 * Version counters of cached data (the stop-word matcher...). A change raises the counter in its own transaction;
 * every app process reads the counter (one primary-key read) before it uses its cache and rebuilds when the number
 * moved. So several processes over one PostgreSQL database stay right without any message between them.
 */
export async function readCacheVersion(db: Kysely<DB>, name: string): Promise<number> {
  const row = await db.selectFrom('cacheVersions').select('version').where('name', '=', name).executeTakeFirst();
  return row?.version ?? 0;
}

export async function bumpCacheVersion(db: Kysely<DB>, name: string): Promise<void> {
  await db
    .insertInto('cacheVersions')
    .values({ name, version: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ version: eb('cacheVersions.version', '+', 1) })))
    .execute();
}

/**
 * The counters of `cache_versions` as read at the start of the current request. Every /api request (and every page)
 * reads the whole small table before anything consults a per-process cache, so a cache entry made under an older
 * number is never used after a write that committed before the request began, in this process or any other.
 *
 * On SQLite that is a prepared statement, run at once. On PostgreSQL it is a round trip, and requests arriving while
 * one is under way share the next: a read that began before a request arrived may have missed a write committed just
 * before it, so such a request waits for a read that begins after it (the one queued behind the read under way, which
 * every request arriving meanwhile joins). Under load that is one read per round trip or two instead of one per
 * request: the statement and its socket writes were about a tenth of the CPU of a member's thread.list
 * (docs/performance.md, "tenth part").
 */
/** The name of the counters' read as a prepared statement. */
const VERSIONS = 'luntan_cache_versions';

export class CacheVersions {
  private versions = new Map<string, number>();
  /** SQLite: the rows at once. PostgreSQL: a round trip. */
  private readonly read:
    | { now: true; rows: () => { name: string; version: number }[] }
    | { now: false; rows: () => Promise<{ name: string; version: number }[]> };
  /** The read under way (PostgreSQL), and the one queued behind it for the requests that arrived meanwhile. */
  private reading: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(handle: Database['handle']) {
    if (handle.kind === 'sqlite') {
      const statement = handle.sqlite.prepare('select name, version from cache_versions');
      this.read = { now: true, rows: () => statement.all() as { name: string; version: number }[] };
    } else {
      const { pool } = handle;
      // Named where statements are (db/prepared-statements.ts): the table's columns never change.
      const query = { text: 'select name, version from cache_versions', ...(handle.prepare ? { name: VERSIONS } : {}) };
      this.read = {
        now: false,
        rows: async () => (await pool.query<{ name: string; version: number }>(query)).rows,
      };
    }
  }

  refresh(): Promise<void> {
    if (this.read.now) {
      try {
        this.apply(this.read.rows());
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    const rows = this.read.rows;
    if (this.queued) return this.queued;
    if (!this.reading) return this.startRead(rows);
    const queued = this.reading
      .catch(() => undefined)
      .then(() => {
        if (this.queued === queued) this.queued = null;
        return this.startRead(rows);
      });
    this.queued = queued;
    return queued;
  }

  private startRead(rows: () => Promise<{ name: string; version: number }[]>): Promise<void> {
    const read = rows()
      .then((answer) => this.apply(answer))
      .finally(() => {
        if (this.reading === read) this.reading = null;
      });
    this.reading = read;
    return read;
  }

  private apply(rows: { name: string; version: number }[]): void {
    const next = new Map<string, number>();
    for (const row of rows) next.set(row.name, Number(row.version));
    // A number never goes back (an entry made under the newer number would look stale, and one made under the older
    // number current again), whatever order reads end in.
    for (const [name, version] of this.versions) if ((next.get(name) ?? 0) < version) next.set(name, version);
    this.versions = next;
  }

  get(name: string): number {
    return this.versions.get(name) ?? 0;
  }
}

/** One value computed from the database, kept while the counter `name` stays where it was when it was read. */
export class VersionedValue<T> {
  private kept: { version: number; value: T } | null = null;

  constructor(
    private readonly versions: CacheVersions,
    private readonly name: string,
    private readonly load: () => Promise<T>,
  ) {}

  async get(): Promise<T> {
    const version = this.versions.get(this.name);
    if (this.kept && this.kept.version === version) return this.kept.value;
    const value = await this.load();
    this.kept = { version, value };
    return value;
  }
}
