import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useRunDatabase } from '../test/run-database.js';
import type { Database } from './database.js';
import { rowLimit } from './row-limit.js';

/*
 * SQLite re-prepares a statement each time a value is bound to its LIMIT (row-limit.ts), so on SQLite a whole-number
 * limit is written into the SQL text and the offset stays bound; PostgreSQL keeps both bound. Run on the run's
 * database (SQLite, or PostgreSQL with DATABASE_URL).
 */
describe('row limits', () => {
  const run = useRunDatabase('row-limit');
  let database: Database;

  beforeAll(async () => {
    database = run.get();
    await database.db
      .insertInto('cacheVersions')
      .values([1, 2, 3, 4, 5].map((version) => ({ name: `rowLimit${version}`, version })))
      .execute();
  });

  const page = (limit: number, offset: number) =>
    database.db
      .selectFrom('cacheVersions')
      .select('version')
      .where('name', 'like', 'rowLimit%')
      .orderBy('version')
      .limit(limit)
      .offset(offset);

  it('writes a whole-number limit into the text on SQLite and binds the offset', async () => {
    const compiled = page(2, 1).compile();
    if (database.dialect === 'sqlite') {
      expect(compiled.sql).toMatch(/ limit 2 offset \?$/);
      expect(compiled.parameters).toEqual(['rowLimit%', 1]);
    } else {
      expect(compiled.sql).toMatch(/ limit \$2 offset \$3$/);
      expect(compiled.parameters).toEqual(['rowLimit%', 2, 1]);
    }
    expect((await page(2, 1).execute()).map((r) => r.version)).toEqual([2, 3]);
    // The same statement text with another offset, and another page size: each answers its own rows.
    expect((await page(2, 3).execute()).map((r) => r.version)).toEqual([4, 5]);
    expect((await page(3, 0).execute()).map((r) => r.version)).toEqual([1, 2, 3]);
  });

  it('binds a limit that is not a whole number, as before', () => {
    const compiled = database.db
      .selectFrom('cacheVersions')
      .select('version')
      .limit(sql<number>`1 + 1`)
      .compile();
    expect(compiled.sql).toMatch(/ limit 1 \+ 1$/);
    const bound = database.db
      .selectFrom('cacheVersions')
      .select('version')
      .limit(2.5 as number)
      .compile();
    expect(bound.parameters).toEqual([2.5]);
  });

  it('writes a raw query’s limit as a literal, and refuses anything but a whole number', async () => {
    const query = sql<{
      version: number;
    }>`select version from cache_versions where name like ${'rowLimit%'} order by version limit ${rowLimit(2)} offset ${2}`;
    const compiled = query.compile(database.db);
    expect(compiled.sql).toContain(' limit 2 offset ');
    expect(compiled.parameters).toEqual(['rowLimit%', 2]);
    expect((await query.execute(database.db)).rows.map((r) => r.version)).toEqual([3, 4]);
    for (const bad of [2.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => rowLimit(bad), String(bad)).toThrow(RangeError);
    }
  });
});
