import SqliteDatabase from 'better-sqlite3';
import {
  CamelCasePlugin,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Compilable,
  type CompiledQuery,
} from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useRunDatabase } from '../test/run-database.js';
import { camelCase, ListsAsArraysPostgresCompiler, snakeCase, type Database } from './database.js';
import type { DB } from './schema.js';

/*
 * The forum's queries name tables and columns in camelCase; the database has them in snake_case. The mapping is made
 * where the SQL text is written and where the rows are named (database.ts), not by Kysely's CamelCasePlugin copying
 * every query's tree: these tests hold it to the plugin's own output, query by query, and read rows back through it
 * on the run's database (SQLite, or PostgreSQL with DATABASE_URL).
 */

/** PostgreSQL's dialect with our lists (database.ts, ListsAsArraysPostgresCompiler) and Kysely's names. */
class ListsAsArraysDialect extends PostgresDialect {
  override createQueryCompiler() {
    return new ListsAsArraysPostgresCompiler();
  }
}

/** What Kysely's CamelCasePlugin makes of the same queries on the same kind of database. */
function pluginDb(dialect: Database['dialect']): Kysely<DB> {
  return dialect === 'postgres'
    ? new Kysely<DB>({ dialect: new ListsAsArraysDialect({ pool: new pg.Pool() }), plugins: [new CamelCasePlugin()] })
    : new Kysely<DB>({
        dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
        plugins: [new CamelCasePlugin()],
      });
}

const queries: [string, (db: Kysely<DB>) => Compilable][] = [
  [
    'a select with joins, aliases, a subquery, raw references and a sort',
    (db) =>
      db
        .selectFrom('threads')
        .innerJoin('users', 'users.id', 'threads.userId')
        .select(['threads.id', 'threads.firstPostId', 'users.nickname as authorNickname'])
        .select((eb) => eb.fn.countAll<number>().as('replyCount'))
        .select(sql<number>`${sql.ref('threads.viewCount')} + 1`.as('nextViewCount'))
        .where('threads.categoryId', 'in', [1, 2, 3])
        .where('threads.userId', 'not in', (eb) =>
          eb.selectFrom('userDenies').select('userDenies.denyUserId').where('userDenies.userId', '=', 7),
        )
        .where('threads.isSticky', '=', sql.lit(1))
        .groupBy('threads.id')
        .orderBy('threads.lastPostedAt', 'desc')
        .limit(10)
        .offset(20),
  ],
  [
    'an insert with a conflict rule and returning',
    (db) =>
      db
        .insertInto('cacheVersions')
        .values({ name: 'someName', version: 1 })
        .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ version: eb('cacheVersions.version', '+', 1) })))
        .returning(['name', 'version']),
  ],
  [
    'an update and a delete',
    (db) => db.updateTable('threads').set({ viewCount: 3, updatedAt: 'x' }).where('firstPostId', '=', 5),
  ],
  ['a delete', (db) => db.deleteFrom('postLikes').where('postLikes.userId', '=', 1).where('postId', 'in', [4, 5])],
  [
    'a common table expression',
    (db) =>
      db
        .with('lastPosts', (q) => q.selectFrom('posts').select(['posts.threadId', 'posts.createdAt']))
        .selectFrom('lastPosts')
        .selectAll(),
  ],
  [
    'schema statements',
    (db) =>
      db.schema
        .createTable('someTable')
        .addColumn('someColumn', 'integer')
        .addColumn('otherColumn2', 'text', (c) => c.notNull()),
  ],
  ['an index', (db) => db.schema.createIndex('someTable_byColumn').on('someTable').columns(['someColumn', 'userId'])],
];

/**
 * On SQLite a whole-number limit is written into the text rather than bound (row-limit.ts): the plugin's query with
 * its `limit ?` made the same way.
 */
function writtenLimit(dialect: Database['dialect'], query: CompiledQuery): CompiledQuery {
  if (dialect !== 'sqlite') return query;
  const at = query.sql.indexOf('limit ?');
  if (at < 0) return query;
  const index = query.sql.slice(0, at).split('?').length - 1;
  const parameters = [...query.parameters];
  const [limit] = parameters.splice(index, 1);
  return {
    ...query,
    sql: `${query.sql.slice(0, at)}limit ${String(limit)}${query.sql.slice(at + 'limit ?'.length)}`,
    parameters,
  };
}

describe('names between the code and the tables', () => {
  const run = useRunDatabase('naming');
  let database: Database;
  beforeAll(() => {
    database = run.get();
  });

  it('writes every query as Kysely CamelCasePlugin writes it', () => {
    const reference = pluginDb(database.dialect);
    for (const [what, build] of queries) {
      const ours = build(database.db).compile();
      const theirs = writtenLimit(database.dialect, build(reference).compile());
      expect({ what, sql: ours.sql, parameters: ours.parameters }).toEqual({
        what,
        sql: theirs.sql,
        parameters: theirs.parameters,
      });
    }
  });

  it('maps names as the plugin does, digits and capitals included', () => {
    expect(snakeCase('firstPostId')).toBe('first_post_id');
    expect(snakeCase('otherColumn2')).toBe('other_column2');
    expect(camelCase('first_post_id')).toBe('firstPostId');
    expect(camelCase('n')).toBe('n');
  });

  it('answers rows named in camelCase, from tables and from raw SQL', async () => {
    await database.db.insertInto('cacheVersions').values({ name: 'namingTest', version: 4 }).execute();
    const row = await database.db
      .selectFrom('cacheVersions')
      .select(['name', 'version'])
      .select(sql<number>`version * 2`.as('doubledVersion'))
      .where('name', '=', 'namingTest')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'namingTest', version: 4, doubledVersion: 8 });
    const raw = await sql<{ someValue: number; plain: number }>`select 5 as some_value, 6 as plain`.execute(
      database.db,
    );
    expect(raw.rows).toEqual([{ someValue: 5, plain: 6 }]);
  });
});
