import { WalletStatus } from '@luntan/shared';
import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Transaction } from 'kysely';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';

/*
 * All the SQL of wallets: balances, the ledger (wallet_logs) and the pay password's state. A balance changes only
 * through changeBalances: one conditional UPDATE that cannot take it below zero (ledger.ts runs it in a transaction).
 */

type Db = Kysely<DB> | Transaction<DB>;

/** Makes the user's wallet if it does not exist yet. */
export async function insertWalletIfMissing(db: Db, userId: number): Promise<void> {
  const at = now();
  await db
    .insertInto('wallets')
    .values({ userId, createdAt: at, updatedAt: at })
    .onConflict((oc) => oc.column('userId').doNothing())
    .execute();
}

/**
 * Adds to the balances in one statement that the database refuses when either would go below zero (and, when
 * `requireActive`, when the wallet is frozen). Answers the new balances, or undefined when nothing changed.
 */
export async function changeBalances(
  trx: Transaction<DB>,
  userId: number,
  available: number,
  frozen: number,
  requireActive: boolean,
) {
  let update = trx
    .updateTable('wallets')
    .set({
      availableCents: sql`available_cents + ${available}`,
      frozenCents: sql`frozen_cents + ${frozen}`,
      updatedAt: now(),
    })
    .where('userId', '=', userId)
    .where(sql<boolean>`available_cents + ${available} >= 0`)
    .where(sql<boolean>`frozen_cents + ${frozen} >= 0`);
  if (requireActive) update = update.where('status', '=', WalletStatus.NORMAL);
  return update.returning(['availableCents', 'frozenCents']).executeTakeFirst();
}

export async function insertWalletLog(trx: Transaction<DB>, row: Insertable<DB['walletLogs']>): Promise<void> {
  await trx.insertInto('walletLogs').values(row).execute();
}

export async function readWalletRow(db: Db, userId: number) {
  return db
    .selectFrom('wallets')
    .select(['availableCents', 'frozenCents', 'status', 'payPasswordHash', 'payLockedUntil'])
    .where('userId', '=', userId)
    .executeTakeFirst();
}

/** One page of a member's ledger, newest first, with the order's and withdrawal's numbers. */
export async function listWalletLogRows(
  db: Db,
  userId: number,
  q: { types: number[]; start: string | undefined; end: string | undefined; page: number; perPage: number },
) {
  let base = db.selectFrom('walletLogs as l').where('l.userId', '=', userId);
  if (q.types.length > 0) base = base.where('l.changeType', 'in', q.types);
  if (q.start) base = base.where('l.createdAt', '>=', q.start);
  if (q.end) base = base.where('l.createdAt', '<=', q.end);
  const [{ count }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    base
      .leftJoin('orders as o', 'o.id', 'l.orderId')
      .leftJoin('walletCash as c', 'c.id', 'l.cashId')
      .select([
        'l.id',
        'l.changeAvailableCents',
        'l.changeFrozenCents',
        'l.availableAfterCents',
        'l.frozenAfterCents',
        'l.changeType',
        'l.changeDesc',
        'l.createdAt',
        'o.orderSn',
        'c.cashSn',
      ])
      .orderBy('l.id', 'desc')
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .execute(),
  ]);
  return { count: Number(count), rows };
}

/** Stores a new pay password hash, clearing a lock and the wrong-try count. */
export async function setPayPasswordHash(db: Db, userId: number, hash: string): Promise<void> {
  await db
    .updateTable('wallets')
    .set({ payPasswordHash: hash, payFailures: 0, payLockedUntil: null, updatedAt: now() })
    .where('userId', '=', userId)
    .execute();
}

/** Replaces a legacy pay password hash just proven right with ours, only while it is still the one stored. */
export async function upgradePayPasswordHash(db: Db, userId: number, old: string, hash: string): Promise<void> {
  await db
    .updateTable('wallets')
    .set({ payPasswordHash: hash, updatedAt: now() })
    .where('userId', '=', userId)
    .where('payPasswordHash', '=', old)
    .execute();
}

/**
 * Counts a pay password try in one conditional statement: a wrong one is counted only while fewer than `tries` are
 * and the wallet is not locked, a right one clears the count only while it is not locked. Answers the count after
 * it, or undefined when the wallet was locked (nothing changed).
 */
export async function countPayTry(
  db: Db,
  userId: number,
  right: boolean,
  tries: number,
  at: string,
): Promise<number | undefined> {
  const open = (eb: ExpressionBuilder<DB, 'wallets'>) =>
    eb.and([eb('payFailures', '<', tries), eb.or([eb('payLockedUntil', 'is', null), eb('payLockedUntil', '<=', at)])]);
  const counted = await db
    .updateTable('wallets')
    .set(right ? { payFailures: 0 } : { payFailures: sql`pay_failures + 1` })
    .where('userId', '=', userId)
    .where(open)
    .returning('payFailures')
    .executeTakeFirst();
  return counted?.payFailures;
}

export async function lockPay(db: Db, userId: number, until: string): Promise<void> {
  await db.updateTable('wallets').set({ payFailures: 0, payLockedUntil: until }).where('userId', '=', userId).execute();
}
