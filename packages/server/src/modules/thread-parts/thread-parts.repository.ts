import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface PartRow {
  threadId: number;
  type: number;
  value: unknown;
  priceIds: number[];
}

const parse = (text: string): unknown => JSON.parse(text) as unknown;

/** The parts of these threads. */
export async function partRows(db: Kysely<DB>, threadIds: readonly number[]): Promise<PartRow[]> {
  if (threadIds.length === 0) return [];
  const rows = await db
    .selectFrom('threadParts')
    .select(['threadId', 'type', 'value', 'priceIds'])
    .where('threadId', 'in', threadIds)
    .orderBy('type')
    .execute();
  return rows.map((r) => ({ ...r, value: parse(r.value), priceIds: parse(r.priceIds) as number[] }));
}

/** The part types each of these threads holds (one query for a page of a list). */
export async function partTypesByThread(db: Kysely<DB>, threadIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (threadIds.length === 0) return out;
  const rows = await db
    .selectFrom('threadParts')
    .select(['threadId', 'type'])
    .where('threadId', 'in', threadIds)
    .orderBy('type')
    .execute();
  for (const row of rows) out.set(row.threadId, [...(out.get(row.threadId) ?? []), row.type]);
  return out;
}

export async function insertPart(
  trx: Kysely<DB>,
  row: { threadId: number; type: number; value: unknown; at: string },
): Promise<void> {
  await trx
    .insertInto('threadParts')
    .values({
      threadId: row.threadId,
      type: row.type,
      value: JSON.stringify(row.value ?? null),
      createdAt: row.at,
      updatedAt: row.at,
    })
    .execute();
}

export async function updatePartValue(
  trx: Kysely<DB>,
  threadId: number,
  type: number,
  value: unknown,
  at: string,
): Promise<void> {
  await trx
    .updateTable('threadParts')
    .set({ value: JSON.stringify(value ?? null), updatedAt: at })
    .where('threadId', '=', threadId)
    .where('type', '=', type)
    .execute();
}

export async function deletePart(trx: Kysely<DB>, threadId: number, type: number): Promise<void> {
  await trx.deleteFrom('threadParts').where('threadId', '=', threadId).where('type', '=', type).execute();
}
