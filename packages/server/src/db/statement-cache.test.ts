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

  it('answers the rows better-sqlite3 itself makes: every column in order, a name seen twice as better-sqlite3 has it', () => {
    const raw = new SqliteDatabase(':memory:');
    const connection = withStatementCache(raw);
    raw.exec(`create table a (id integer primary key, name text, n real, b blob, gone text);
      create table c (id integer primary key, a_id integer, name text);
      insert into a values (1, '一', 1.5, x'0102', null), (2, 'two', null, null, 'x');
      insert into c values (10, 1, 'c1'), (11, 2, 'c2'), (12, 2, 'c3')`);
    const source =
      'select a.*, c.id, c.name, count(*) over () as "count(*)" from a join c on c.a_id = a.id order by c.id';
    const ours = (connection.prepare(source) as SqliteDatabase.Statement).all();
    const theirs = raw.prepare(source).all();
    expect(ours).toEqual(theirs);
    expect(ours.map((row) => Object.keys(row as object))).toEqual(theirs.map((row) => Object.keys(row as object)));
    expect(ours[0]).toEqual({ id: 10, name: 'c1', n: 1.5, b: Buffer.from([1, 2]), gone: null, 'count(*)': 3 });
    connection.close();
  });

  it('names the columns afresh when a migration adds or drops a column under a cached statement', () => {
    const raw = new SqliteDatabase(':memory:');
    const connection = withStatementCache(raw);
    raw.exec('create table t (a integer, b integer); insert into t values (1, 2)');
    const read = () => (connection.prepare('select * from t') as SqliteDatabase.Statement).all();
    expect(read()).toEqual([{ a: 1, b: 2 }]);
    raw.exec('alter table t drop column a');
    expect(read()).toEqual([{ b: 2 }]);
    raw.exec('alter table t add column c text');
    expect(read()).toEqual([{ b: 2, c: null }]);
    connection.close();
  });
});
