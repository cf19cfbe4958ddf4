import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { bumpCacheVersion, CacheVersions, readCacheVersion } from './cache-versions.js';

const COUNTER = 'cache-versions-test';

describe('CacheVersions', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('sees a write committed before the refresh', async () => {
    const { db, handle } = t.server.database;
    const versions = new CacheVersions(handle);
    await versions.refresh();
    const before = versions.get(COUNTER);
    await bumpCacheVersion(db, COUNTER);
    await versions.refresh();
    expect(versions.get(COUNTER)).toBe(before + 1);
    expect(versions.get(COUNTER)).toBe(await readCacheVersion(db, COUNTER));
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'on PostgreSQL, has the requests that arrive during a read share the next one, which sees what they saw committed',
    async () => {
      const { db, handle } = t.server.database;
      if (handle.kind !== 'postgres') throw new Error('DATABASE_URL is set: the test server runs on PostgreSQL');
      const real = handle.pool;
      // The pool, with the answer of a read held back until the test lets it go, once the read has happened.
      let reads = 0;
      let hold: Promise<void> | null = null;
      let read!: () => void;
      const firstRead = new Promise<void>((resolve) => (read = resolve));
      const pool = {
        query: async (text: string) => {
          reads += 1;
          const result = await real.query(text);
          read();
          if (hold) await hold;
          return result;
        },
      } as unknown as pg.Pool;
      const versions = new CacheVersions({ kind: 'postgres', pool });
      const before = await readCacheVersion(db, COUNTER);

      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      const first = versions.refresh();
      await firstRead;
      // Committed after the first read read the table, before the next two requests arrive.
      await bumpCacheVersion(db, COUNTER);
      const second = versions.refresh();
      const third = versions.refresh();
      hold = null;
      release();
      await Promise.all([first, second, third]);

      expect(versions.get(COUNTER)).toBe(before + 1);
      expect(reads).toBe(2);
      await versions.refresh();
      expect(reads).toBe(3);
    },
  );
});
