import { Code, WalletStatus, type WalletChangeTypeValue } from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { changeBalances, insertWalletIfMissing, insertWalletLog, readWalletRow } from './wallet.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * The one way money moves. Every change of a wallet is a conditional UPDATE that cannot take a balance below zero
 * (the database checks the new balance in the same statement, so no read-then-write race exists on either
 * database), followed in the same transaction by its ledger row carrying the balances the UPDATE returned. Callers
 * run it inside `db.transaction()`: a refusal throws and the whole transaction, order change included, rolls back.
 * PostgreSQL serialises concurrent updates of one wallet on its row lock; SQLite runs one write transaction at a time.
 */

type Db = Kysely<DB> | Transaction<DB>;

export interface WalletChange {
  userId: number;
  /** Change of the available balance in cents (negative: money out). */
  available: number;
  /** Change of the frozen balance in cents. */
  frozen?: number;
  type: WalletChangeTypeValue;
  /** What the member reads in the ledger (one language: the site's at the time). */
  desc: string;
  orderId?: number | null;
  cashId?: number | null;
  /** The administrator who changed it by hand. */
  operatorId?: number | null;
  /** Refuse when the wallet is frozen (paying, withdrawing); receiving money works on a frozen wallet. */
  requireActive?: boolean;
}

export interface Balances {
  availableCents: number;
  frozenCents: number;
}

export const insufficientFunds = () =>
  new AppError(Code.PAYMENT_FAILED, msg('wallet.thereNotEnoughMoney'), {
    data: { reason: 'balance' },
  });

export const walletFrozen = () =>
  new AppError(Code.PAYMENT_FAILED, msg('wallet.walletFrozen'), {
    data: { reason: 'frozen' },
  });

/** Makes the user's wallet if it does not exist yet (a wallet is created on first use). */
export async function ensureWallet(db: Db, userId: number): Promise<void> {
  await insertWalletIfMissing(db, userId);
}

/** Applies one change and writes its ledger row; throws insufficientFunds / walletFrozen and changes nothing. */
export async function applyChange(trx: Transaction<DB>, change: WalletChange): Promise<Balances> {
  const available = Math.trunc(change.available);
  const frozen = Math.trunc(change.frozen ?? 0);
  if (!Number.isSafeInteger(available) || !Number.isSafeInteger(frozen))
    throw new Error('a wallet change must be whole cents');
  await ensureWallet(trx, change.userId);
  const row = await changeBalances(trx, change.userId, available, frozen, change.requireActive === true);
  if (!row) {
    const wallet = await readWalletRow(trx, change.userId);
    if (change.requireActive && wallet?.status === WalletStatus.FROZEN) throw walletFrozen();
    throw insufficientFunds();
  }
  const balances = { availableCents: Number(row.availableCents), frozenCents: Number(row.frozenCents) };
  await insertWalletLog(trx, {
    userId: change.userId,
    changeAvailableCents: available,
    changeFrozenCents: frozen,
    availableAfterCents: balances.availableCents,
    frozenAfterCents: balances.frozenCents,
    changeType: change.type,
    changeDesc: change.desc.slice(0, 255),
    orderId: change.orderId ?? null,
    cashId: change.cashId ?? null,
    operatorId: change.operatorId ?? null,
    createdAt: now(),
  });
  return balances;
}

/** The user's balances (zero when there is no wallet yet). */
export async function readBalances(db: Db, userId: number): Promise<Balances & { status: number }> {
  const row = await readWalletRow(db, userId);
  return {
    availableCents: Number(row?.availableCents ?? 0),
    frozenCents: Number(row?.frozenCents ?? 0),
    status: row?.status ?? WalletStatus.NORMAL,
  };
}

/** A new order's or withdrawal's number: the UTC time to the second and ten random digits (24 characters). */
export function newSerial(): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const random = Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) =>
    String(n % 100000).padStart(5, '0'),
  ).join('');
  return `${stamp}${random}`;
}
