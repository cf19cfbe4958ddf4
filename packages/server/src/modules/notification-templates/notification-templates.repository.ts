import { sql, type Kysely, type Updateable } from 'kysely';
import type { DB, NotificationTpl, NotificationTplsTable } from '../../db/schema.js';
import { likePattern } from '../../db/like-pattern.js';

export interface TplFilter {
  name?: string | undefined;
  status?: number | undefined;
}

function filtered(db: Kysely<DB>, f: TplFilter) {
  let q = db.selectFrom('notificationTpls');
  if (f.name) q = q.where(sql<boolean>`lower(type_name) like ${likePattern(f.name)} escape '\\'`);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  return q;
}

/** The type names that have a matching template, in the order they were first seeded (lowest id). */
export async function typeNamesPage(db: Kysely<DB>, f: TplFilter, offset: number, limit: number) {
  const [count, rows] = await Promise.all([
    filtered(db, f)
      .select((eb) => eb.fn.count<number>('typeName').distinct().as('n'))
      .executeTakeFirstOrThrow(),
    filtered(db, f)
      .select(['typeName', (eb) => eb.fn.min<number>('id').as('firstId')])
      .groupBy('typeName')
      .orderBy('firstId')
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return { total: Number(count.n), typeNames: rows.map((r) => r.typeName) };
}

export function templatesOf(db: Kysely<DB>, typeNames: string[], f: TplFilter = {}): Promise<NotificationTpl[]> {
  if (typeNames.length === 0) return Promise.resolve([]);
  let q = db.selectFrom('notificationTpls').selectAll().where('typeName', 'in', typeNames);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  return q.orderBy('type').execute();
}

export function findTemplate(db: Kysely<DB>, id: number): Promise<NotificationTpl | undefined> {
  return db.selectFrom('notificationTpls').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findTemplateByType(
  db: Kysely<DB>,
  typeName: string,
  channel: number,
): Promise<NotificationTpl | undefined> {
  return db
    .selectFrom('notificationTpls')
    .selectAll()
    .where('typeName', '=', typeName)
    .where('type', '=', channel)
    .executeTakeFirst();
}

export async function updateTemplate(
  db: Kysely<DB>,
  id: number,
  changes: Updateable<NotificationTplsTable>,
): Promise<void> {
  await db.updateTable('notificationTpls').set(changes).where('id', '=', id).execute();
}
