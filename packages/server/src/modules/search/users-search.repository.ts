import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { containsPattern } from './search-terms.js';

/** Case-insensitive LIKE (SQLite's LIKE folds ASCII; PostgreSQL needs ILIKE, served by the pg_trgm indexes). */
const op = (dialect: DialectName) => sql.raw(dialect === 'postgres' ? 'ilike' : 'like');

function matching<O>(
  q: SelectQueryBuilder<DB, 'users', O>,
  dialect: DialectName,
  keyword: string,
  status: number,
): SelectQueryBuilder<DB, 'users', O> {
  q = q.where('users.status', '=', status);
  if (keyword === '') return q;
  const pattern = containsPattern(keyword);
  return q.where(
    sql<boolean>`(users.username ${op(dialect)} ${pattern} escape '\\' or users.nickname ${op(dialect)} ${pattern} escape '\\')`,
  );
}

export async function countUsersMatching(
  db: Kysely<DB>,
  dialect: DialectName,
  keyword: string,
  status: number,
): Promise<number> {
  const row = await matching(db.selectFrom('users'), dialect, keyword, status)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function searchUsers(
  db: Kysely<DB>,
  dialect: DialectName,
  keyword: string,
  status: number,
  offset: number,
  limit: number,
) {
  let q = matching(
    db
      .selectFrom('users')
      .select([
        'users.id as userId',
        'users.username',
        'users.nickname',
        'users.avatar',
        'users.signature',
        'users.threadCount',
        'users.fansCount',
      ]),
    dialect,
    keyword,
    status,
  );
  if (keyword !== '') {
    const prefix = `${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // 0 exact, 1 starts with, 2 holds the keyword.
    q = q.orderBy(
      sql`case when lower(users.username) = ${keyword} or lower(users.nickname) = ${keyword} then 0
        when users.username ${op(dialect)} ${prefix} escape '\\' or users.nickname ${op(dialect)} ${prefix} escape '\\' then 1
        else 2 end`,
    );
    q = q.orderBy('users.threadCount', 'desc');
  } else {
    q = q.orderBy('users.id', 'desc');
  }
  return q.orderBy('users.id', 'asc').offset(offset).limit(limit).execute();
}
