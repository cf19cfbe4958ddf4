import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** All SQL of private messages. */

export function findDialog(db: Kysely<DB>, id: number) {
  return db.selectFrom('dialogs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDialogBetween(db: Kysely<DB>, a: number, b: number) {
  return db
    .selectFrom('dialogs')
    .selectAll()
    .where('lowUserId', '=', Math.min(a, b))
    .where('highUserId', '=', Math.max(a, b))
    .executeTakeFirst();
}

/** The dialog of a pair, created (with both members' sides) when there is none; two at once find the same one. */
export async function findOrCreateDialog(db: Kysely<DB>, a: number, b: number, at: string): Promise<number> {
  const low = Math.min(a, b);
  const high = Math.max(a, b);
  await db
    .insertInto('dialogs')
    .values({ lowUserId: low, highUserId: high, lastMessageId: null, createdAt: at, updatedAt: at })
    .onConflict((oc) => oc.columns(['lowUserId', 'highUserId']).doNothing())
    .execute();
  const dialog = await findDialogBetween(db, low, high);
  if (!dialog) throw new Error('dialog vanished after insert');
  await db
    .insertInto('dialogMembers')
    .values([
      { dialogId: dialog.id, userId: low, updatedAt: at },
      { dialogId: dialog.id, userId: high, updatedAt: at },
    ])
    .onConflict((oc) => oc.columns(['dialogId', 'userId']).doNothing())
    .execute();
  return dialog.id;
}

export async function insertMessage(
  db: Kysely<DB>,
  values: {
    dialogId: number;
    userId: number;
    messageText: string;
    imageUrl: string;
    attachmentId: number | null;
    isApproved: number;
    createdAt: string;
  },
): Promise<number> {
  const row = await db.insertInto('dialogMessages').values(values).returning('id').executeTakeFirstOrThrow();
  if (values.isApproved === 1) {
    await db
      .updateTable('dialogs')
      .set({ lastMessageId: row.id, updatedAt: values.createdAt })
      .where('id', '=', values.dialogId)
      .where((eb) => eb.or([eb('lastMessageId', 'is', null), eb('lastMessageId', '<', row.id)]))
      .execute();
  }
  // The sender has read everything up to their own message.
  await markRead(db, values.dialogId, values.userId, row.id);
  return row.id;
}

/** Marks a member's side read up to `messageId` (never backwards). */
export async function markRead(db: Kysely<DB>, dialogId: number, userId: number, messageId: number): Promise<void> {
  await db
    .updateTable('dialogMembers')
    .set({ readMessageId: messageId })
    .where('dialogId', '=', dialogId)
    .where('userId', '=', userId)
    .where('readMessageId', '<', messageId)
    .execute();
}

/** Deletes the dialog for one member: the messages so far no longer show for them. */
export async function clearDialog(db: Kysely<DB>, dialogId: number, userId: number, upTo: number): Promise<void> {
  await db
    .updateTable('dialogMembers')
    .set({ clearedMessageId: upTo })
    .where('dialogId', '=', dialogId)
    .where('userId', '=', userId)
    .where('clearedMessageId', '<', upTo)
    .execute();
  await markRead(db, dialogId, userId, upTo);
}

export function findMember(db: Kysely<DB>, dialogId: number, userId: number) {
  return db
    .selectFrom('dialogMembers')
    .selectAll()
    .where('dialogId', '=', dialogId)
    .where('userId', '=', userId)
    .executeTakeFirst();
}

/** The newest message id of a dialog that `userId` may see (their own held ones included). */
export async function lastVisibleMessageId(db: Kysely<DB>, dialogId: number): Promise<number> {
  const row = await db
    .selectFrom('dialogMessages')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('dialogId', '=', dialogId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Messages `userId` sees in a dialog: not cleared by them, approved or their own. */
function visibleMessages(db: Kysely<DB>, dialogId: number, userId: number, clearedId: number) {
  return db
    .selectFrom('dialogMessages')
    .where('dialogMessages.dialogId', '=', dialogId)
    .where('dialogMessages.id', '>', clearedId)
    .where((eb) => eb.or([eb('dialogMessages.isApproved', '=', 1), eb('dialogMessages.userId', '=', userId)]));
}

export function listMessages(
  db: Kysely<DB>,
  dialogId: number,
  userId: number,
  clearedId: number,
  offset: number,
  limit: number,
) {
  return visibleMessages(db, dialogId, userId, clearedId)
    .selectAll('dialogMessages')
    .orderBy('dialogMessages.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countMessages(db: Kysely<DB>, dialogId: number, userId: number, clearedId: number) {
  const row = await visibleMessages(db, dialogId, userId, clearedId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A member's dialogs that hold a message they still see, newest activity first, with the other member. */
export function listDialogsOf(db: Kysely<DB>, userId: number, offset: number, limit: number) {
  return dialogsOf(db, userId)
    .innerJoin('users as other', (join) =>
      join.on((eb) =>
        eb(
          'other.id',
          '=',
          eb
            .case()
            .when('dialogs.lowUserId', '=', userId)
            .then(eb.ref('dialogs.highUserId'))
            .else(eb.ref('dialogs.lowUserId'))
            .end(),
        ),
      ),
    )
    .select([
      'dialogs.id as dialogId',
      'dialogs.updatedAt',
      'dialogs.lastMessageId',
      'dialogMembers.readMessageId',
      'dialogMembers.clearedMessageId',
      'other.id as otherId',
      'other.username as otherUsername',
      'other.nickname as otherNickname',
      'other.avatar as otherAvatar',
    ])
    .orderBy('dialogs.updatedAt', 'desc')
    .orderBy('dialogs.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

function dialogsOf(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('dialogMembers')
    .innerJoin('dialogs', 'dialogs.id', 'dialogMembers.dialogId')
    .where('dialogMembers.userId', '=', userId)
    .where('dialogs.lastMessageId', 'is not', null)
    .whereRef('dialogs.lastMessageId', '>', 'dialogMembers.clearedMessageId');
}

export async function countDialogsOf(db: Kysely<DB>, userId: number): Promise<number> {
  const row = await dialogsOf(db, userId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findMessages(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('dialogMessages').selectAll().where('id', 'in', ids).execute();
}

/**
 * Unread messages of `userId`: approved messages of the other member after what they read and cleared; per dialog
 * (`dialogIds`) or over all their dialogs.
 */
export async function countUnread(db: Kysely<DB>, userId: number, dialogIds?: number[]): Promise<Map<number, number>> {
  let q = db
    .selectFrom('dialogMembers')
    .innerJoin('dialogMessages', 'dialogMessages.dialogId', 'dialogMembers.dialogId')
    .select(['dialogMembers.dialogId', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('dialogMembers.userId', '=', userId)
    .where('dialogMessages.userId', '!=', userId)
    .where('dialogMessages.isApproved', '=', 1)
    .whereRef('dialogMessages.id', '>', 'dialogMembers.readMessageId')
    .whereRef('dialogMessages.id', '>', 'dialogMembers.clearedMessageId')
    .groupBy('dialogMembers.dialogId');
  if (dialogIds) q = q.where('dialogMembers.dialogId', 'in', dialogIds.length > 0 ? dialogIds : [0]);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.dialogId, Number(r.n)]));
}

/**
 * How many messages `userId` has not read in all their dialogs, as a select of one row (`category` null, `n`) that
 * another module's statement can add to its own with `union all`: the unread counters of every page a member opens
 * are one statement (notifications.repository.ts, countUnreadCounters). The same messages as countUnread's.
 */
export function unreadMessagesRow(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('dialogMembers')
    .innerJoin('dialogMessages', 'dialogMessages.dialogId', 'dialogMembers.dialogId')
    .select([sql<string | null>`null`.as('category'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('dialogMembers.userId', '=', userId)
    .where('dialogMessages.userId', '!=', userId)
    .where('dialogMessages.isApproved', '=', 1)
    .whereRef('dialogMessages.id', '>', 'dialogMembers.readMessageId')
    .whereRef('dialogMessages.id', '>', 'dialogMembers.clearedMessageId');
}

/** The other member's read mark, to show which of my messages they have read. */
export async function otherReadMark(db: Kysely<DB>, dialogId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom('dialogMembers')
    .select('readMessageId')
    .where('dialogId', '=', dialogId)
    .where('userId', '!=', userId)
    .executeTakeFirst();
  return row?.readMessageId ?? 0;
}

/** Held messages (is_approved 0 waiting, 2 ignored) with sender and recipient, newest first. */
export function listHeldMessages(db: Kysely<DB>, state: number, offset: number, limit: number) {
  return db
    .selectFrom('dialogMessages')
    .innerJoin('dialogs', 'dialogs.id', 'dialogMessages.dialogId')
    .innerJoin('users as sender', 'sender.id', 'dialogMessages.userId')
    .innerJoin('users as recipient', (join) =>
      join.on((eb) =>
        eb(
          'recipient.id',
          '=',
          eb
            .case()
            .when('dialogs.lowUserId', '=', eb.ref('dialogMessages.userId'))
            .then(eb.ref('dialogs.highUserId'))
            .else(eb.ref('dialogs.lowUserId'))
            .end(),
        ),
      ),
    )
    .select([
      'dialogMessages.id',
      'dialogMessages.dialogId',
      'dialogMessages.messageText',
      'dialogMessages.imageUrl',
      'dialogMessages.createdAt',
      'dialogMessages.isApproved',
      'sender.id as senderId',
      'sender.username as senderUsername',
      'sender.nickname as senderNickname',
      'sender.avatar as senderAvatar',
      'recipient.id as recipientId',
      'recipient.username as recipientUsername',
      'recipient.nickname as recipientNickname',
      'recipient.avatar as recipientAvatar',
    ])
    .where('dialogMessages.isApproved', '=', state)
    .orderBy('dialogMessages.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countHeldMessages(db: Kysely<DB>, state: number): Promise<number> {
  const row = await db
    .selectFrom('dialogMessages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('isApproved', '=', state)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sets the approval state of held messages; answers the ones changed. */
export function setApproval(db: Kysely<DB>, ids: number[], state: number) {
  return db
    .updateTable('dialogMessages')
    .set({ isApproved: state })
    .where('id', 'in', ids)
    .where('isApproved', '!=', 1)
    .returning(['id', 'dialogId', 'userId', 'createdAt'])
    .execute();
}

export async function deleteHeldMessages(db: Kysely<DB>, ids: number[]): Promise<number> {
  const rows = await db
    .deleteFrom('dialogMessages')
    .where('id', 'in', ids)
    .where('isApproved', '!=', 1)
    .returning('id')
    .execute();
  return rows.length;
}

/** After a held message is approved: the dialog's last message and activity move to it when it is the newest. */
export async function touchDialog(db: Kysely<DB>, dialogId: number, messageId: number, at: string): Promise<void> {
  await db
    .updateTable('dialogs')
    .set({ lastMessageId: messageId, updatedAt: at })
    .where('id', '=', dialogId)
    .where((eb) => eb.or([eb('lastMessageId', 'is', null), eb('lastMessageId', '<', messageId)]))
    .execute();
}
