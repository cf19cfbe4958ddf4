import { OrderType, PayType, type OrderInfo, type TradePayResult } from '@luntan/shared';
import { expect } from 'vitest';
import { sandboxSecret } from '../modules/payments/payments.service.js';
import { sandboxCallback, SANDBOX_SIGNATURE_HEADER } from '../modules/payments/providers/sandbox.js';
import type { TestServer } from './harness.js';

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
