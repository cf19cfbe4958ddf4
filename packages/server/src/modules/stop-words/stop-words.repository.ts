import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB, StopWord, StopWordsTable } from '../../db/schema.js';
import { likePattern } from '../../db/like-pattern.js';

const CHUNK = 500;

function filtered(db: Kysely<DB>, filter: string | undefined) {
  let q = db.selectFrom('stopWords');
  if (filter) q = q.where(sql<boolean>`find_normalized like ${likePattern(filter)} escape '\\'`);
  return q;
}

export async function countStopWords(db: Kysely<DB>, filter: string | undefined): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listStopWords(
  db: Kysely<DB>,
  filter: string | undefined,
  offset: number,
  limit: number,
): Promise<StopWord[]> {
  return filtered(db, filter).selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute();
}

export function allStopWords(db: Kysely<DB>): Promise<StopWord[]> {
  return db.selectFrom('stopWords').selectAll().orderBy('id').execute();
}

/** Of these normalized words, those that exist. */
export async function existingStopWords(db: Kysely<DB>, normalized: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < normalized.length; i += CHUNK) {
    const rows = await db
      .selectFrom('stopWords')
      .select('findNormalized')
      .where('findNormalized', 'in', normalized.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) out.add(r.findNormalized);
  }
  return out;
}

/** Inserts words; with `overwrite`, a word that exists takes the new actions and replacement. */
export async function upsertStopWords(
  db: Kysely<DB>,
  rows: Insertable<StopWordsTable>[],
  overwrite: boolean,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('stopWords')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        overwrite
          ? oc.column('findNormalized').doUpdateSet((eb) => ({
              find: eb.ref('excluded.find'),
              replacement: eb.ref('excluded.replacement'),
              ugc: eb.ref('excluded.ugc'),
              username: eb.ref('excluded.username'),
              signature: eb.ref('excluded.signature'),
              dialog: eb.ref('excluded.dialog'),
              nickname: eb.ref('excluded.nickname'),
              updatedAt: eb.ref('excluded.updatedAt'),
            }))
          : oc.column('findNormalized').doNothing(),
      )
      .execute();
  }
}

export async function deleteStopWords(db: Kysely<DB>, ids: number[]): Promise<number> {
  const res = await db.deleteFrom('stopWords').where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}
