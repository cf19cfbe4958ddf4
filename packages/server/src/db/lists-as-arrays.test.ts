import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useRunDatabase } from '../test/run-database.js';

/*
 * On PostgreSQL a list of values is bound as one array (database.ts, ListsAsArraysPostgresCompiler): the statement's
 * text does not change with the list's length, and the rows are those `in` and `not in` answer, NULLs included.
 * SQLite keeps Kysely's `in (?, ?)`.
 */

const ODD = 'a, "b" {c} \\d';

interface Items {
  listItems: { id: number; label: string | null };
}

describe('lists of values in a query', () => {
  const run = useRunDatabase('lists-as-arrays');
  let db: Kysely<Items>;
  beforeAll(async () => {
    db = run.get().db as unknown as Kysely<Items>;
    await sql`create table list_items (id integer primary key, label text)`.execute(db);
    await sql`insert into list_items values (1, 'a'), (2, 'b'), (3, null), (4, 'd')`.execute(db);
    await sql`insert into list_items values (5, ${ODD}), (6, 'NULL')`.execute(db);
  });

  const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort();

  it('answers in and not in as the lists say, for numbers and texts, with a NULL among them', async () => {
    const q = db.selectFrom('listItems').select('id');
    expect(ids(await q.where('id', 'in', [2, 4, 9]).execute())).toEqual([2, 4]);
    expect(ids(await q.where('id', 'not in', [2, 4]).execute())).toEqual([1, 3, 5, 6]);
    expect(ids(await q.where('label', 'in', ['a', 'd']).execute())).toEqual([1, 4]);
    // A NULL in the list matches nothing, and makes `not in` match nothing either (SQL's three-valued logic).
    expect(ids(await q.where('label', 'in', ['b', null]).execute())).toEqual([2]);
    expect(await q.where('label', 'not in', ['b', null]).execute()).toEqual([]);
    // Texts that an array's literal must quote: a comma, quotes, braces, a backslash, the word NULL.
    expect(ids(await q.where('label', 'in', [ODD, 'NULL']).execute())).toEqual([5, 6]);
    expect(ids(await q.where('label', 'in', ['x', 'NULL']).execute())).toEqual([6]);
    // A list of expressions and a subquery are written as Kysely writes them.
    expect(ids(await q.where('id', 'in', [sql<number>`1 + 1`, sql<number>`3`]).execute())).toEqual([2, 3]);
    const sub = db.selectFrom('listItems as l').select('l.id').where('l.label', '=', 'a');
    expect(ids(await q.where('id', 'in', sub).execute())).toEqual([1]);
  });

  it('writes a list of values as one array on PostgreSQL, whatever its length', () => {
    const q = (list: number[]) => db.selectFrom('listItems').select('id').where('id', 'in', list).compile();
    const [two, five] = [q([1, 2]), q([1, 2, 3, 4, 5])];
    if (run.get().dialect === 'postgres') {
      expect(two.sql).toBe(five.sql);
      expect(two.sql).toMatch(/"id" = any\(\$1\)$/);
      expect(five.parameters).toEqual([[1, 2, 3, 4, 5]]);
      const not = db.selectFrom('listItems').select('id').where('id', 'not in', [7]).compile();
      expect(not.sql).toMatch(/"id" <> all\(\$1\)$/);
    } else {
      expect(two.sql).toMatch(/"id" in \(\?, \?\)$/);
      expect(five.parameters).toEqual([1, 2, 3, 4, 5]);
    }
  });
});
