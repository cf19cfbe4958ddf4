import { sql, type Kysely } from 'kysely';

/*
 * Data: the purchases made before `purchases` existed, one per member and thread (the earliest paid order, where a
 * race of old paid one twice; that money is not moved here: docs/money.md says how to find and return it).
 * Immutable once on main.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into purchases (user_id, type, thing_id, order_id, created_at)
    select o.user_id, o.type, o.thread_id, min(o.id), min(coalesce(o.paid_at, o.created_at))
    from orders o
    where o.type = 3 and o.status = 1 and o.thread_id is not null
    group by o.user_id, o.type, o.thread_id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from purchases`.execute(db);
}
