import type { Kysely } from 'kysely';

/*
 * Data only (the column came in 2026112601): members made by a first SMS sign-in before that migration still carry
 * the username it generated (`u_` and eight lower-case letters or digits) and a bound number; they may choose a
 * username once, as new ones may. A member who typed such a name at registration and later bound a number is
 * counted too: they may then rename once, which harms nobody.
 * Immutable once on main: later changes go in a new migration.
 */
const GENERATED = /^u_[a-z0-9]{8}$/;

export async function up(db: Kysely<unknown>): Promise<void> {
  const trx = db as Kysely<{ users: { id: number; username: string; mobile: string | null } }>;
  const rows = await trx
    .selectFrom('users')
    .select(['id', 'username'])
    .where('mobile', 'is not', null)
    .where('username', 'like', 'u%')
    .execute();
  const ids = rows.filter((r) => GENERATED.test(r.username)).map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    await (db as Kysely<{ users: { id: number; username_generated: number } }>)
      .updateTable('users')
      .set({ username_generated: 1 })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

export async function down(): Promise<void> {
  // The column's values go with the column (2026112601's down).
}
