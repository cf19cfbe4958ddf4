import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from './database.js';
import { pgDriver } from './pg-driver.js';
import { PREPARE_AFTER, preparedStatements } from './prepared-statements.js';

/*
 * Named prepared statements on PostgreSQL (prepared-statements.ts), on the run's PostgreSQL (DATABASE_URL): what is
 * named, what is not, and a statement whose columns changed under it. SQLite keeps its own statements
 * (database.ts, withStatementCache): nothing to test there.
 */

const url = process.env.DATABASE_URL;
const schema = `t_prepared_${process.pid}`;

/** The names of the statements prepared on the connection this runs on. */
async function preparedHere<T>(db: Kysely<T>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(db);
  return rows.map((r) => r.name);
}

const backendAlive = async <T>(db: Kysely<T>, pid: number) =>
  Number(
    (await sql<{ n: number }>`select count(*) as n from pg_stat_activity where pid = ${pid}`.execute(db)).rows[0]!.n,
  ) > 0;

describe.skipIf(!url)('named prepared statements on PostgreSQL', () => {
  let database: Database;
  let other: Database;
  const open = (prepare: 'on' | 'off') =>
    openDatabase(
      loadConfig({ DATA_DIR: '/nonexistent', DATABASE_URL: url, DATABASE_SCHEMA: schema, DATABASE_PREPARE: prepare }),
    );

  beforeAll(async () => {
    database = await open('on');
    other = await open('off');
    await sql`create table items (id integer primary key, name text not null)`.execute(database.db);
    await sql`insert into items values (1, 'one'), (2, 'two')`.execute(database.db);
  });
  afterAll(async () => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(other.db);
    await database.destroy();
    await other.destroy();
  });

  it('names a select or an update after its text once the process has run it five times, and nothing else', async () => {
    const db = database.db as unknown as Kysely<{ items: { id: number; name: string } }>;
    await db.connection().execute(async (conn) => {
      const before = new Set(await preparedHere(conn));
      const added = async () => (await preparedHere(conn)).filter((name) => !before.has(name));
      const read = (id: number) => conn.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst();
      const rename = (name: string) => conn.updateTable('items').set({ name }).where('id', '=', 2).execute();
      for (let run = 1; run < PREPARE_AFTER; run += 1) {
        expect(await read(run % 2 === 0 ? 2 : 1)).toEqual({ name: run % 2 === 0 ? 'two' : 'one' });
        await rename('two');
      }
      expect(await added()).toEqual([]);
      expect(await read(2)).toEqual({ name: 'two' });
      await rename('zwei');
      await rename('two');
      await sql`create temporary table if not exists scratch (id integer)`.execute(conn);
      // The select and the update: one name each, whatever the values; the DDL none.
      const named = await added();
      expect(named).toHaveLength(2);
      expect(named.every((name) => name.startsWith('luntan_'))).toBe(true);
    });
  });

  it('sends every statement unnamed with DATABASE_PREPARE=off', async () => {
    await other.db.connection().execute(async (conn) => {
      await sql`select name from items where id = ${1}`.execute(conn);
      expect(await preparedHere(conn)).toEqual([]);
    });
  });

  it('names no more texts than its limit', async () => {
    const pg = pgDriver();
    const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path="${schema}"` });
    const prepared = preparedStatements(pool, { after: 1, limit: 2 });
    const client = await prepared.connect();
    try {
      for (const text of ['select 1 as a', 'select 2 as b', 'select 3 as c', 'select 1 as a'])
        await client.query(text, []);
      const { rows } = await client.query('select name, statement from pg_prepared_statements order by name', []);
      expect(prepared.named).toBe(2);
      expect(rows).toEqual([
        { name: 'luntan_0', statement: 'select 1 as a' },
        { name: 'luntan_1', statement: 'select 2 as b' },
      ]);
    } finally {
      client.release();
      await pool.end();
    }
  });

  it('runs a select whose columns changed unnamed, and closes its connection afterwards', async () => {
    await sql`create table changing (id integer primary key)`.execute(database.db);
    await sql`insert into changing values (1)`.execute(database.db);
    let pid = 0;
    await database.db.connection().execute(async (conn) => {
      pid = Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn)).rows[0]!.pid);
      const all = () => sql<Record<string, unknown>>`select * from changing`.execute(conn);
      for (let run = 0; run < PREPARE_AFTER; run += 1) expect((await all()).rows).toEqual([{ id: 1 }]);
      // Another process's migration adds a column.
      await sql`alter table changing add column label text not null default 'x'`.execute(other.db);
      expect((await all()).rows).toEqual([{ id: 1, label: 'x' }]);
    });
    await expect.poll(() => backendAlive(other.db, pid)).toBe(false);
  });

  it('fails such a select inside a transaction, and closes its connection afterwards', async () => {
    await sql`create table changing2 (id integer primary key)`.execute(database.db);
    let pid = 0;
    await database.db.connection().execute(async (conn) => {
      pid = Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn)).rows[0]!.pid);
      for (let run = 0; run < PREPARE_AFTER; run += 1) await sql`select * from changing2`.execute(conn);
      await sql`alter table changing2 add column label text`.execute(other.db);
      await expect(
        conn.transaction().execute(async (trx) => sql`select * from changing2`.execute(trx)),
      ).rejects.toMatchObject({ code: '0A000' });
    });
    await expect.poll(() => backendAlive(other.db, pid)).toBe(false);
  });
});
