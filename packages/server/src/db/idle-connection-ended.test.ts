import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from './database.js';

const url = process.env.DATABASE_URL;
const schema = `t_idle_end_${process.pid}`;

/*
 * PostgreSQL may end a connection the pool holds idle (a restart, a failover, an administrator's
 * pg_terminate_backend, a database dropped with force). The pool drops it and opens another; the process goes on.
 * Without the pool's error listener (database.ts) the terminated connection's error is thrown from the socket's
 * event, which the test run reports as an unhandled error and fails on.
 */
describe.skipIf(!url)('an idle PostgreSQL connection ended by the server', () => {
  let database: Database | undefined;
  afterAll(async () => {
    if (database) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
    await database?.destroy();
  });

  it('is dropped by the pool, and the next statement runs on a new one', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      database = await openDatabase(
        loadConfig({ DATA_DIR: '/nonexistent', DATABASE_URL: url, DATABASE_SCHEMA: schema }),
      );
      const pid = async () =>
        Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database!.db)).rows[0]!.pid);
      const first = await pid();
      // The connection is idle in the pool now; another connection ends it.
      const other = await openDatabase(loadConfig({ DATA_DIR: '/nonexistent', DATABASE_URL: url }));
      try {
        await sql`select pg_terminate_backend(${first})`.execute(other.db);
      } finally {
        await other.destroy();
      }
      const handle = database.handle;
      if (handle.kind !== 'postgres') throw new Error('expected PostgreSQL');
      // The pool learns of it from the socket: the connection leaves the pool.
      for (let i = 0; i < 200 && handle.pool.totalCount > 0; i += 1) await new Promise((r) => setTimeout(r, 10));
      expect(handle.pool.totalCount).toBe(0);
      expect(logged.mock.calls.some(([message]) => String(message).includes('closed an idle connection'))).toBe(true);
      const second = await pid();
      expect(second).not.toBe(first);
    } finally {
      logged.mockRestore();
    }
  });
});
