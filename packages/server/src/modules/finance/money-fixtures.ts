import { OrderStatus, type AdminCashItem, type CashItem, type CashReviewResult, type Page } from '@luntan/shared';
import { ADMIN } from '../../test/harness.js';
import { expect } from 'vitest';
import type { TestServer } from '../../test/harness.js';

/** Money helpers for tests: fund wallets the way an administrator does, apply, review, and check the ledger. */

export async function setMoneySettings(
  t: TestServer,
  admin: string,
  values: Record<string, string | number | boolean>,
): Promise<void> {
  const data = Object.entries(values).map(([key, value]) => ({ key, value, tag: 'default' }));
  const res = await t.post('/api/settings.v2', { data }, admin);
  if (res.Code !== 0) throw new Error(`setMoneySettings failed: ${res.Code} ${res.Message}`);
}

/** Adds money to a user's wallet through POST /api/backAdmin/users/wallet.update. */
export async function fund(t: TestServer, admin: string, userId: number, amount: string): Promise<void> {
  const res = await t.post(
    '/api/backAdmin/users/wallet.update',
    { userId, operateType: 1, operateAmount: amount, operateReason: 'test funds' },
    admin,
  );
  if (res.Code !== 0) throw new Error(`fund failed: ${res.Code} ${res.Message}`);
}

export const applyCash = (t: TestServer, token: string | undefined, amount: string | number, account = 'alice@pay') =>
  t.post<CashItem>('/api/v3/wallet/cash', { cashApplyAmount: amount, receiveAccount: account }, token);

export const reviewCash = (t: TestServer, admin: string, ids: number[], cashStatus: number, remark = '') =>
  t.post<CashReviewResult>('/api/backAdmin/wallet.cash.review', { ids, cashStatus, remark }, admin);

/** A withdrawal as the administrators' list shows it. */
export async function cashById(t: TestServer, admin: string, userId: number, id: number): Promise<AdminCashItem> {
  const res = await t.get<Page<AdminCashItem>>(
    `/api/backAdmin/users.cash.logs?filter[userId]=${userId}&perPage=50`,
    admin,
  );
  const found = res.Data.pageData.find((c) => c.id === id);
  if (!found) throw new Error(`withdrawal ${id} not listed`);
  return found;
}

/** The wallet's balances in cents (zeros when it has none). */
export async function balances(
  t: TestServer,
  userId: number,
): Promise<{ available: number; frozen: number; status: number }> {
  const row = await t.app.ctx.db
    .selectFrom('wallets')
    .select(['availableCents', 'frozenCents', 'status'])
    .where('userId', '=', userId)
    .executeTakeFirst();
  return {
    available: Number(row?.availableCents ?? 0),
    frozen: Number(row?.frozenCents ?? 0),
    status: row?.status ?? 0,
  };
}

/** The ledger of a wallet adds up to its balances, and every row's balances-after follow from the one before. */
export async function expectLedgerMatches(t: TestServer, userId: number): Promise<void> {
  const rows = await t.app.ctx.db
    .selectFrom('walletLogs')
    .select(['changeAvailableCents', 'changeFrozenCents', 'availableAfterCents', 'frozenAfterCents'])
    .where('userId', '=', userId)
    .orderBy('id')
    .execute();
  let available = 0;
  let frozen = 0;
  for (const r of rows) {
    available += Number(r.changeAvailableCents);
    frozen += Number(r.changeFrozenCents);
    expect([Number(r.availableAfterCents), Number(r.frozenAfterCents)]).toEqual([available, frozen]);
  }
  const b = await balances(t, userId);
  expect({ available, frozen }, `ledger of user ${userId}`).toEqual({ available: b.available, frozen: b.frozen });
}

let serial = 0;

/** An order written straight into the table (creating orders is the orders module's). */
export async function insertOrder(
  t: TestServer,
  o: {
    userId: number;
    type: number;
    status: number;
    amount: number;
    master?: number;
    createdAt?: string;
    paidAt?: string | null;
    threadId?: number | null;
  },
): Promise<number> {
  serial += 1;
  const createdAt = o.createdAt ?? new Date().toISOString();
  const row = await t.app.ctx.db
    .insertInto('orders')
    .values({
      orderSn: `T${Date.now()}${String(serial).padStart(6, '0')}`,
      userId: o.userId,
      payeeId: null,
      type: o.type,
      status: o.status,
      amountCents: o.amount,
      authorAmountCents: o.amount - (o.master ?? 0),
      masterAmountCents: o.master ?? 0,
      threadId: o.threadId ?? null,
      groupId: null,
      createdAt,
      updatedAt: createdAt,
      expiresAt: createdAt,
      paidAt: o.status === OrderStatus.PAID ? (o.paidAt ?? createdAt) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function adminId(t: TestServer): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', ADMIN.username)
    .executeTakeFirstOrThrow();
  return row.id;
}
