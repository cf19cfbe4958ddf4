import {
  OrderStatus,
  OrderType,
  PayType,
  type AdminCashItem,
  type CashItem,
  type CashReviewResult,
  type DomainEventName,
  type NotificationItem,
  type NotificationType,
  type OrderInfo,
  type Page,
  type TradePayResult,
} from '@luntan/shared';
import { expect } from 'vitest';
import { sandboxCallback, SANDBOX_SIGNATURE_HEADER, sandboxSecret } from '../modules/payments/index.js';
import { ADMIN, type TestServer } from './harness.js';

/** Money in tests goes through the API: orders, the sandbox provider's signed callback, the wallet payment. */

export const PAY_PASSWORD = '135790';

export async function setSettings(
  t: TestServer,
  admin: string,
  values: Record<string, string | number | boolean>,
  tag = 'default',
): Promise<void> {
  const data = Object.entries(values).map(([key, value]) => ({ key, value, tag }));
  const res = await t.post('/api/settings.v2', { data }, admin);
  if (res.Code !== 0) throw new Error(`settings failed: ${res.Code} ${res.Message}`);
}

export async function setPayPassword(t: TestServer, user: { token: string; password: string }): Promise<void> {
  const res = await t.post(
    '/api/v3/users/pay-password/reset',
    { password: user.password, payPassword: PAY_PASSWORD },
    user.token,
  );
  if (res.Code !== 0) throw new Error(`pay password failed: ${res.Code} ${res.Message}`);
}

export async function createOrder(t: TestServer, token: string, body: Record<string, unknown>): Promise<OrderInfo> {
  const res = await t.post<OrderInfo>('/api/v3/order.create', body, token);
  if (res.Code !== 0) throw new Error(`order.create failed: ${res.Code} ${res.Message}`);
  return res.Data;
}

/** The sandbox provider's callback for an order, signed as the site signs it, delivered `times` times. */
export async function deliverSandboxCallback(
  t: TestServer,
  order: { orderSn: string; amountCents: number },
  outcome: 'paid' | 'failed' = 'paid',
  times = 1,
): Promise<{ status: number; body: string }[]> {
  const signed = sandboxCallback(await sandboxSecret(t.app.ctx.db), order, outcome);
  const answers = [];
  for (let i = 0; i < times; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v3/pay/notify/sandbox',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signed.signature },
      payload: signed.body,
    });
    // What the payment announced (the payee's notice, a returned payment's) is delivered, as after t.post.
    await t.app.ctx.events.drain();
    answers.push({ status: res.statusCode, body: res.body });
  }
  return answers;
}

/** Recharges the member's wallet through the sandbox (the server must run with PAYMENT_SANDBOX=1). */
export async function recharge(t: TestServer, token: string, amount: string): Promise<OrderInfo> {
  const order = await createOrder(t, token, { type: OrderType.RECHARGE, amount });
  const pay = await t.post<TradePayResult>(
    '/api/v3/trade/pay/order',
    { orderSn: order.orderSn, paymentType: PayType.SANDBOX },
    token,
  );
  if (pay.Code !== 0) throw new Error(`trade/pay/order failed: ${pay.Code} ${pay.Message}`);
  const done = await t.post<{ status: number }>(
    '/api/v3/pay/sandbox/complete',
    { orderSn: order.orderSn, outcome: 'paid' },
    token,
  );
  if (done.Code !== 0 || done.Data.status !== 1)
    throw new Error(`sandbox payment failed: ${done.Code} ${done.Message}`);
  return order;
}

/** For every wallet: the ledger's changes add up to its balances (available and frozen), and none is negative. */
export async function expectLedgerMatchesWallets(t: TestServer): Promise<void> {
  const db = t.app.ctx.db;
  const wallets = await db.selectFrom('wallets').select(['userId', 'availableCents', 'frozenCents']).execute();
  const sums = await db
    .selectFrom('walletLogs')
    .select((eb) => [
      'userId',
      eb.fn.sum<number>('changeAvailableCents').as('available'),
      eb.fn.sum<number>('changeFrozenCents').as('frozen'),
    ])
    .groupBy('userId')
    .execute();
  const byUser = new Map(sums.map((s) => [s.userId, s]));
  for (const w of wallets) {
    const s = byUser.get(w.userId);
    expect({ user: w.userId, available: Number(s?.available ?? 0), frozen: Number(s?.frozen ?? 0) }).toEqual({
      user: w.userId,
      available: Number(w.availableCents),
      frozen: Number(w.frozenCents),
    });
    expect(Number(w.availableCents)).toBeGreaterThanOrEqual(0);
    expect(Number(w.frozenCents)).toBeGreaterThanOrEqual(0);
  }
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

const payPasswordSet = new WeakSet<object>();

/** Applies for a withdrawal with the pay password (set for the member on their first application). */
export async function applyCash(
  t: TestServer,
  user: { token: string; password: string } | undefined,
  amount: string | number,
  account = 'alice@pay',
) {
  if (user && !payPasswordSet.has(user)) {
    await setPayPassword(t, user);
    payPasswordSet.add(user);
  }
  return t.post<CashItem>(
    '/api/v3/wallet/cash',
    { cashApplyAmount: amount, receiveAccount: account, payPassword: PAY_PASSWORD },
    user?.token,
  );
}

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

/** The member's notices of one financial type, as the message centre lists them (listing marks them read). */
export async function financialNotices(
  t: TestServer,
  token: string,
  type: NotificationType,
): Promise<NotificationItem[]> {
  const res = await t.get<Page<NotificationItem>>(`/api/v3/notification?perPage=50&filter[type]=${type}`, token);
  expect(res.Code).toBe(0);
  return res.Data.pageData;
}

/**
 * Hands the notifications every `name` event about the thread again, as when their process died before marking
 * them delivered (a notice must not be told twice).
 */
export async function redeliverToNotifications(t: TestServer, name: DomainEventName, threadId: number): Promise<void> {
  const db = t.app.ctx.db;
  const events = await db.selectFrom('domainEvents').select(['id', 'payload']).where('name', '=', name).execute();
  const ids = events
    .filter((e) => (JSON.parse(e.payload) as { threadId?: number }).threadId === threadId)
    .map((e) => e.id);
  expect(ids.length, `${name} events of thread ${threadId}`).toBeGreaterThan(0);
  const reopened = await db
    .updateTable('eventDeliveries')
    .set({ doneAt: null, claimedBy: null, nextAttemptAt: new Date(Date.now() - 1).toISOString() })
    .where('eventId', 'in', ids)
    .where('subscriber', '=', 'notifications')
    .executeTakeFirst();
  expect(Number(reopened.numUpdatedRows)).toBe(ids.length);
  await t.app.ctx.events.drain();
  const delivered = await db
    .selectFrom('eventDeliveries')
    .select(['attempts', 'doneAt'])
    .where('eventId', 'in', ids)
    .where('subscriber', '=', 'notifications')
    .execute();
  for (const d of delivered) expect(d).toMatchObject({ attempts: 2, doneAt: expect.any(String) });
}
