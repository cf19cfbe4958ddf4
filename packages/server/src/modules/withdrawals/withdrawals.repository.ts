import { CashStatus } from '@luntan/shared';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB, WalletCash, WalletCashTable } from '../../db/schema.js';

/** All SQL of withdrawals (wallet_cash). Money moves only through the ledger (wallet/ledger.ts), never here. */

type Db = Kysely<DB> | Transaction<DB>;

export async function insertWithdrawal(
  trx: Transaction<DB>,
  values: {
    cashSn: string;
    userId: number;
    applyCents: number;
    chargeCents: number;
    receiveAccount: string;
    at: string;
  },
): Promise<number> {
  const row = await trx
    .insertInto('walletCash')
    .values({
      cashSn: values.cashSn,
      userId: values.userId,
      applyCents: values.applyCents,
      chargeCents: values.chargeCents,
      receiveAccount: values.receiveAccount,
      status: CashStatus.PENDING,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The user's withdrawals made since `since` that still count toward the daily limit (neither rejected nor failed). */
export async function countWithdrawalsSince(db: Db, userId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('walletCash')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .where('createdAt', '>=', since)
    .where('status', 'not in', [CashStatus.REJECTED, CashStatus.PAYOUT_FAILED])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countOwnWithdrawals(db: Db, userId: number, status: number | undefined): Promise<number> {
  let q = db
    .selectFrom('walletCash')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId);
  if (status !== undefined) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export function listOwnWithdrawals(
  db: Db,
  userId: number,
  q: { status: number | undefined; limit: number; offset: number },
): Promise<WalletCash[]> {
  let query = db.selectFrom('walletCash').selectAll().where('userId', '=', userId);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  return query.orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
}

export function findWithdrawal(db: Db, id: number): Promise<WalletCash | undefined> {
  return db.selectFrom('walletCash').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Moves a withdrawal from `from` to another state only if it is still in `from`: of two reviewers deciding the same
 * withdrawal at once, exactly one sees `true` (the other's update matches no row). Answers whether it moved.
 * A withdrawal whose payout is in flight (trade_no '') moves only by the payout's own answer (`paying`).
 */
export async function moveWithdrawal(
  trx: Transaction<DB>,
  id: number,
  from: number,
  changes: Updateable<WalletCashTable> & { status: number },
  { paying = false }: { paying?: boolean } = {},
): Promise<boolean> {
  const update = trx.updateTable('walletCash').set(changes).where('id', '=', id).where('status', '=', from);
  const moved = await (paying ? update.where('tradeNo', '=', '') : update.where('tradeNo', 'is', null))
    .returning('id')
    .executeTakeFirst();
  return moved !== undefined;
}

/** A payout that ended without an answer: the withdrawal stays approved and may be settled by hand again. */
export async function markPayoutSettled(db: Db, id: number): Promise<void> {
  await db
    .updateTable('walletCash')
    .set({ tradeNo: null })
    .where('id', '=', id)
    .where('status', '=', CashStatus.APPROVED)
    .where('tradeNo', '=', '')
    .execute();
}
