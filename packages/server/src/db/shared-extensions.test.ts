import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../test/harness.js';

/*
 * PostgreSQL: forums (and the tests) may share one database, each in its own schema. pg_trgm lives once per database,
 * in a schema of its own, so dropping one forum's schema leaves the others' trigram indexes standing.
 */
describe.runIf(process.env.DATABASE_URL)('pg_trgm shared by the schemas of one database', () => {
  it('lives apart from every forum schema, and a dropped forum schema takes no other forum index with it', async () => {
    const first = await startTestServer();
    const second = await startTestServer();
    let firstOpen = true;
    try {
      const db = second.server.database.db;
      const ext = await sql<{ schema: string }>`
        select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db);
      // luntan_extensions on a fresh database (public, or wherever it was, on one that had it already).
      expect(ext.rows[0]?.schema).toBeDefined();
      expect([first.storage.schema, second.storage.schema]).not.toContain(ext.rows[0]?.schema);
      firstOpen = false;
      await first.close(); // drops the first forum's schema, cascading
      const indexes = await sql<{ name: string }>`
        select indexname as name from pg_indexes
        where schemaname = ${second.storage.schema!} and indexname like '%trgm'`.execute(db);
      expect(indexes.rows.map((r) => r.name).sort()).toEqual([
        'post_search_content_trgm',
        'thread_search_content_trgm',
        'thread_search_title_trgm',
        'users_nickname_trgm',
        'users_username_trgm',
      ]);
    } finally {
      if (firstOpen) await first.close();
      await second.close();
    }
  });
});
