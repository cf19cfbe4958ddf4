import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './database.js';

// The cache sits under Kysely on SQLite only; its rules are checked on a plain in-memory database.
describe('SQLite statement cache', () => {
  it('hands out the compiled statement again for the same SQL text', () => {
    const connection = withStatementCache(new SqliteDatabase(':memory:'));
    const first = connection.prepare('select 1 as one');
    expect(connection.prepare('select 1 as one')).toBe(first);
    expect(connection.prepare('select 2 as two')).not.toBe(first);
    connection.close();
  });

  it('never hands out a statement that is still being iterated', () => {
    const raw = new SqliteDatabase(':memory:');
    const connection = withStatementCache(raw);
    raw.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const statement = connection.prepare('select n from t order by n') as SqliteDatabase.Statement;
    const rows = statement.iterate();
    rows.next();
    const again = connection.prepare('select n from t order by n') as SqliteDatabase.Statement;
    expect(again).not.toBe(statement);
    expect(again.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    rows.return?.();
    connection.close();
  });

  it('keeps answering right after the schema changes under a cached statement', () => {
    const raw = new SqliteDatabase(':memory:');
    const connection = withStatementCache(raw);
    raw.exec('create table t (a integer); insert into t values (1)');
    const read = () => (connection.prepare('select * from t') as SqliteDatabase.Statement).all();
    expect(read()).toEqual([{ a: 1 }]);
    raw.exec('alter table t add column b integer default 7');
    expect(read()).toEqual([{ a: 1, b: 7 }]);
    connection.close();
  });
});
