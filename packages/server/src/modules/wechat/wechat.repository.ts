import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, WechatQrSessionsTable } from '../../db/schema.js';

// The desktop's WeChat QR sessions

export async function insertQrSession(db: Kysely<DB>, values: Insertable<WechatQrSessionsTable>, at: string) {
  await db.deleteFrom('wechatQrSessions').where('expiresAt', '<', at).execute();
  await db.insertInto('wechatQrSessions').values(values).execute();
}

export function findQrSession(db: Kysely<DB>, token: string) {
  return db.selectFrom('wechatQrSessions').selectAll().where('token', '=', token).executeTakeFirst();
}

/** Moves a QR session from one status to the next; false when it was no longer in `from` (taken, expired). */
export async function moveQrSession(
  db: Kysely<DB>,
  token: string,
  from: string,
  changes: Updateable<WechatQrSessionsTable>,
): Promise<boolean> {
  const res = await db
    .updateTable('wechatQrSessions')
    .set(changes)
    .where('token', '=', token)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
