import { PUSH_KINDS, type PushKind, type PushPreferences } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The site's VAPID keys, made the first time they are asked for (the first start) and kept. */
export async function vapidKeys(db: Kysely<DB>): Promise<{ publicKey: string; privateKey: string }> {
  const kept = await db
    .selectFrom('pushVapidKeys')
    .select(['publicKey', 'privateKey'])
    .where('id', '=', 1)
    .executeTakeFirst();
  if (kept) return kept;
  const { default: webpush } = await import('web-push');
  const made = webpush.generateVAPIDKeys();
  // Two processes starting at once: the first row stays, both read it.
  await db
    .insertInto('pushVapidKeys')
    .values({ id: 1, publicKey: made.publicKey, privateKey: made.privateKey, createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db
    .selectFrom('pushVapidKeys')
    .select(['publicKey', 'privateKey'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
}

/** Keeps a browser's subscription for `userId` (an endpoint seen before moves to this member: the same browser). */
export async function saveSubscription(
  db: Kysely<DB>,
  values: { userId: number; endpoint: string; p256dh: string; auth: string; userAgent: string; at: string },
): Promise<void> {
  await db
    .insertInto('pushSubscriptions')
    .values({
      userId: values.userId,
      endpoint: values.endpoint,
      p256dh: values.p256dh,
      auth: values.auth,
      userAgent: values.userAgent.slice(0, 500),
      createdAt: values.at,
    })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        userId: values.userId,
        p256dh: values.p256dh,
        auth: values.auth,
        userAgent: values.userAgent.slice(0, 500),
        failures: 0,
      }),
    )
    .execute();
}

export async function deleteSubscription(db: Kysely<DB>, endpoint: string, userId?: number): Promise<number> {
  let q = db.deleteFrom('pushSubscriptions').where('endpoint', '=', endpoint);
  if (userId !== undefined) q = q.where('userId', '=', userId);
  return Number((await q.executeTakeFirst()).numDeletedRows);
}

export function subscriptionsOf(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('pushSubscriptions')
    .select(['id', 'endpoint', 'p256dh', 'auth'])
    .where('userId', '=', userId)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
}

export async function countSubscriptions(db: Kysely<DB>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('pushSubscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markDelivered(db: Kysely<DB>, id: number, at: string, ok: boolean): Promise<void> {
  await db
    .updateTable('pushSubscriptions')
    .set(ok ? { lastSuccessAt: at, failures: 0 } : (eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function readPreferences(db: Kysely<DB>, userId: number): Promise<PushPreferences> {
  const row = await db.selectFrom('pushPreferences').selectAll().where('userId', '=', userId).executeTakeFirst();
  return Object.fromEntries(PUSH_KINDS.map((k) => [k, row ? row[k] === 1 : true])) as PushPreferences;
}

export async function writePreferences(
  db: Kysely<DB>,
  userId: number,
  changes: Partial<Record<PushKind, boolean>>,
): Promise<PushPreferences> {
  const current = await readPreferences(db, userId);
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  const values = Object.fromEntries(PUSH_KINDS.map((k) => [k, next[k] ? 1 : 0])) as Record<PushKind, number>;
  await db
    .insertInto('pushPreferences')
    .values({ userId, ...values })
    .onConflict((oc) => oc.column('userId').doUpdateSet(values))
    .execute();
  return readPreferences(db, userId);
}
