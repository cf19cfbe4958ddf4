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
 * reads the whole small table once (a prepared statement on SQLite, one round trip on PostgreSQL) before anything
 * consults a per-process cache, so a cache entry made under an older number is never used after a write that
 * committed before the request began, in this process or any other.
 */
export class CacheVersions {
  private versions = new Map<string, number>();
  private readonly readAll: () => Promise<{ name: string; version: number }[]> | { name: string; version: number }[];

  constructor(handle: Database['handle']) {
    if (handle.kind === 'sqlite') {
      const statement = handle.sqlite.prepare('select name, version from cache_versions');
      this.readAll = () => statement.all() as { name: string; version: number }[];
    } else {
      const { pool } = handle;
      this.readAll = async () =>
        (await pool.query<{ name: string; version: number }>('select name, version from cache_versions')).rows;
    }
  }

  async refresh(): Promise<void> {
    const rows = await this.readAll();
    const next = new Map<string, number>();
    for (const row of rows) next.set(row.name, Number(row.version));
    // Reads of concurrent requests may finish out of order: a number never goes back (an entry made under the
    // newer number would look stale, and one made under the older number current again).
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
