import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Unread notifications of a user, counted per message-centre category. */
export async function countUnreadByCategory(db: Kysely<DB>, userId: number): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('notifications')
    .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
    .where('userId', '=', userId)
    .where('readAt', 'is', null)
    .groupBy('category')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.category, Number(r.n)]));
}
