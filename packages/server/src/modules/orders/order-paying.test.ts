/* Orders, paying side: the wallet and its pay password, recharging through the sandbox, paying from the wallet, concurrency. */
import {
  Code,
  OrderStatus,
  OrderType,
  PayType,
  WalletChangeType,
  type OrderInfo,
  type Page,
  type TradePayResult,
  type WalletInfo,
  type WalletLogItem,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread } from '../../test/forum-fixtures.js';
import {
  createOrder,
  deliverSandboxCallback,
  expectLedgerMatchesWallets,
  PAY_PASSWORD,
  recharge,
  setPayPassword,
} from '../../test/money-fixtures.js';

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { PAYMENT_SANDBOX: '1' } });
});
afterAll(async () => {
  await expectLedgerMatchesWallets(t);
  await t.close();
});

const wallet = async (token: string) => (await t.get<WalletInfo>('/api/v3/wallet/user', token)).Data;
const ledger = async (token: string, query = '') =>
  (await t.get<Page<WalletLogItem>>(`/api/v3/wallet/log${query}`, token)).Data;
const pay = (token: string, orderSn: string, payPassword?: string, paymentType: number = PayType.WALLET) =>
  t.post<TradePayResult>(
    '/api/v3/trade/pay/order',
    { orderSn, paymentType, ...(payPassword === undefined ? {} : { payPassword }) },
    token,
  );
const detail = async (token: string, orderSn: string) =>
  (await t.get<OrderInfo>(`/api/v3/order.detail?orderSn=${orderSn}`, token)).Data;

/** A member with a pay password and `amount` in the wallet (recharged through the sandbox). */
async function fundedMember(amount: string): Promise<User> {
  const user = await buildUser(t);
  await setPayPassword(t, user);
  if (amount !== '0.00') await recharge(t, user.token, amount);
  return user;
}

describe('the wallet', () => {
  it('starts empty, without a pay password; guests are sent to log in', async () => {
    const user = await buildUser(t);
    expect(await wallet(user.token)).toMatchObject({
      userId: user.id,
      availableAmount: '0.00',
      freezeAmount: '0.00',
      walletStatus: 0,
      hasPayPassword: false,
      payLockedUntil: null,
      cash: { minAmount: '1.00', maxAmount: '5000.00', dailyCount: 5, feeRate: '0.00' },
    });
    expect((await ledger(user.token)).totalCount).toBe(0);
    expect((await t.get('/api/v3/wallet/user')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.get('/api/v3/wallet/log')).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('sets the pay password only with the right login password and six digits; stores it hashed', async () => {
    const user = await buildUser(t);
    const wrong = await t.post(
      '/api/v3/users/pay-password/reset',
      { password: 'not-my-password', payPassword: '123456' },
      user.token,
    );
    expect(wrong).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'password' } });
    for (const bad of ['12345', '1234567', '12345a', '']) {
      const res = await t.post(
        '/api/v3/users/pay-password/reset',
        { password: user.password, payPassword: bad },
        user.token,
      );
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
      expect(res.Message).toMatch(/支付密码/);
    }
    await setPayPassword(t, user);
    expect((await wallet(user.token)).hasPayPassword).toBe(true);
    const row = await t.app.ctx.db
      .selectFrom('wallets')
      .select('payPasswordHash')
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.payPasswordHash).toMatch(/^\$argon2/);
    expect(row.payPasswordHash).not.toContain(PAY_PASSWORD);
  });
});

describe('recharging through the sandbox', () => {
  it('makes a pending order, sends the payer to the checkout, credits once when paid', async () => {
    const user = await buildUser(t);
    const order = await createOrder(t, user.token, { type: OrderType.RECHARGE, amount: '20.50' });
    expect(order).toMatchObject({ type: 30, status: OrderStatus.PENDING, amount: '20.50', userId: user.id });
    expect(order.orderSn).toMatch(/^\d{24}$/);
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBeGreaterThanOrEqual(599_000);

    const started = await pay(user.token, order.orderSn, undefined, PayType.SANDBOX);
    expect(started.Code).toBe(0);
    expect(started.Data.payUrl).toBe(`/pay/sandbox?orderSn=${order.orderSn}&return=%2Fwallet`);
    expect((await wallet(user.token)).availableAmount).toBe('0.00');

    const done = await t.post<{ status: number }>(
      '/api/v3/pay/sandbox/complete',
      { orderSn: order.orderSn, outcome: 'paid' },
      user.token,
    );
    expect(done).toMatchObject({ Code: 0, Data: { status: OrderStatus.PAID } });
    expect(await wallet(user.token)).toMatchObject({ availableAmount: '20.50', freezeAmount: '0.00' });
    const rows = (await ledger(user.token)).pageData;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      changeAvailableAmount: '20.50',
      changeFreezeAmount: '0.00',
      availableAmount: '20.50',
      changeType: WalletChangeType.RECHARGE,
      changeDesc: '充值',
      orderSn: order.orderSn,
    });
    expect(await detail(user.token, order.orderSn)).toMatchObject({ status: 1, paymentType: PayType.SANDBOX });
  });

  it('credits once when the same callback arrives ten times, and refuses forged or tampered ones', async () => {
    const user = await buildUser(t);
    const order = await createOrder(t, user.token, { type: OrderType.RECHARGE, amount: 7 });
    await pay(user.token, order.orderSn, undefined, PayType.SANDBOX);
    const answers = await deliverSandboxCallback(t, { orderSn: order.orderSn, amountCents: 700 }, 'paid', 10);
    expect(answers.every((a) => a.status === 200 && a.body === 'success')).toBe(true);
    expect((await wallet(user.token)).availableAmount).toBe('7.00');
    expect((await ledger(user.token)).totalCount).toBe(1);

    // A forged signature, a wrong amount and an unknown order: refused, nothing moves.
    const other = await createOrder(t, user.token, { type: OrderType.RECHARGE, amount: '3.00' });
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/v3/pay/notify/sandbox',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': 'ab'.repeat(32) },
      payload: JSON.stringify({
        orderSn: other.orderSn,
        tradeNo: 'x',
        amount: '3.00',
        outcome: 'paid',
        timestamp: Date.now(),
      }),
    });
    expect([forged.statusCode, forged.body]).toEqual([400, 'fail']);
    const wrongAmount = await deliverSandboxCallback(t, { orderSn: other.orderSn, amountCents: 30_000 });
    expect(wrongAmount[0]).toEqual({ status: 400, body: 'fail' });
    const unknown = await deliverSandboxCallback(t, { orderSn: '2026000000000000000000', amountCents: 300 });
    expect(unknown[0]!.status).toBe(400);
    expect((await detail(user.token, other.orderSn)).status).toBe(OrderStatus.PENDING);
    expect((await wallet(user.token)).availableAmount).toBe('7.00');

    // A failed payment marks the order failed; a later "paid" for a failed order is logged, not credited twice.
    const failed = await deliverSandboxCallback(t, { orderSn: other.orderSn, amountCents: 300 }, 'failed');
    expect(failed[0]!.status).toBe(200);
    expect((await detail(user.token, other.orderSn)).status).toBe(OrderStatus.FAILED);
    expect((await wallet(user.token)).availableAmount).toBe('7.00');
  });

  it('keeps to the site’s recharge limits and refuses paying a recharge from the wallet', async () => {
    const user = await fundedMember('0.00');
    for (const amount of ['0.50', '10000.01', '1.234', 'abc', -5]) {
      const res = await t.post('/api/v3/order.create', { type: OrderType.RECHARGE, amount }, user.token);
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
      expect(res.Data).toMatchObject({ field: 'amount' });
    }
    const order = await createOrder(t, user.token, { type: OrderType.RECHARGE, amount: '5.00' });
    const res = await pay(user.token, order.orderSn, PAY_PASSWORD);
    expect(res).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'paymentType' } });
    const off = await pay(user.token, order.orderSn, undefined, PayType.ALIPAY_PAGE);
    expect(off).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'paymentType' } });
    expect(off.Message).toMatch(/没有开启/);
  });

  it('lists the payment methods the site takes', async () => {
    const res = await t.get<{ wallet: boolean; types: number[] }>('/api/v3/pay/methods?platform=h5');
    expect(res.Data).toMatchObject({ wallet: true, types: [PayType.SANDBOX], recharge: { minAmount: '1.00' } });
  });
});

describe('paying from the wallet', () => {
  it('needs a pay password, counts wrong ones and locks after five', async () => {
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token);
    const payer = await buildUser(t);
    await recharge(t, payer.token, '10.00');
    const order = await createOrder(t, payer.token, {
      type: OrderType.REWARD,
      threadId: thread.threadId,
      amount: '1.00',
    });
    expect((await pay(payer.token, order.orderSn, PAY_PASSWORD)).Data).toMatchObject({ field: 'payPassword' });
    await setPayPassword(t, payer);
    expect((await pay(payer.token, order.orderSn)).Data).toMatchObject({ field: 'payPassword' });
    for (let left = 4; left >= 1; left--) {
      const res = await pay(payer.token, order.orderSn, '000000');
      expect(res).toMatchObject({ Code: Code.PAYMENT_FAILED, Data: { triesLeft: left } });
      expect(res.Message).toContain(`${left}`);
    }
    const locked = await pay(payer.token, order.orderSn, '000000');
    expect(locked.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(locked.Message).toMatch(/10 分钟/);
    // The right password does not open the lock.
    expect((await pay(payer.token, order.orderSn, PAY_PASSWORD)).Code).toBe(Code.TOO_MANY_REQUESTS);
    expect((await wallet(payer.token)).payLockedUntil).not.toBeNull();
    expect((await wallet(payer.token)).availableAmount).toBe('10.00');
    // Ten minutes later it works again.
    await t.app.ctx.db
      .updateTable('wallets')
      .set({ payLockedUntil: new Date(Date.now() - 1000).toISOString() })
      .where('userId', '=', payer.id)
      .execute();
    expect((await pay(payer.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
    expect((await wallet(payer.token)).availableAmount).toBe('9.00');
  });

  it('refuses without enough money, for someone else’s order, twice, and when expired: nothing moves', async () => {
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token);
    const payer = await fundedMember('2.00');
    const stranger = await fundedMember('5.00');

    const big = await createOrder(t, payer.token, {
      type: OrderType.REWARD,
      threadId: thread.threadId,
      amount: '2.01',
    });
    const poor = await pay(payer.token, big.orderSn, PAY_PASSWORD);
    expect(poor).toMatchObject({ Code: Code.PAYMENT_FAILED, Data: { reason: 'balance' } });
    expect((await detail(payer.token, big.orderSn)).status).toBe(OrderStatus.PENDING);

    const order = await createOrder(t, payer.token, {
      type: OrderType.REWARD,
      threadId: thread.threadId,
      amount: '2.00',
    });
    expect((await pay(stranger.token, order.orderSn, PAY_PASSWORD)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get(`/api/v3/order.detail?orderSn=${order.orderSn}`, stranger.token)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    expect((await pay(payer.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
    expect((await pay(payer.token, order.orderSn, PAY_PASSWORD)).Data).toMatchObject({ reason: 'paid' });

    const late = await createOrder(t, stranger.token, { type: OrderType.REWARD, threadId: thread.threadId, amount: 1 });
    await t.app.ctx.db
      .updateTable('orders')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('orderSn', '=', late.orderSn)
      .execute();
    expect((await detail(stranger.token, late.orderSn)).status).toBe(OrderStatus.EXPIRED);
    expect((await pay(stranger.token, late.orderSn, PAY_PASSWORD)).Code).toBe(Code.RESOURCE_EXPIRED);

    expect((await wallet(payer.token)).availableAmount).toBe('0.00');
    expect((await wallet(stranger.token)).availableAmount).toBe('5.00');
    expect((await wallet(author.token)).availableAmount).toBe('2.00');
    const expired = await t.get<Page<OrderInfo>>('/api/v3/order.list?filter[status]=4', stranger.token);
    expect(expired.Data.pageData.map((o) => o.orderSn)).toEqual([late.orderSn]);
  });

  it('refuses guests, members without the permissions, and a frozen wallet', async () => {
    expect((await t.post('/api/v3/order.create', { type: OrderType.RECHARGE, amount: 5 })).Code).toBe(
      Code.JUMP_TO_LOGIN,
    );
    expect((await t.post('/api/v3/trade/pay/order', { orderSn: 'x', paymentType: 20 })).Code).toBe(Code.JUMP_TO_LOGIN);
    const payer = await fundedMember('3.00');
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token);
    const order = await createOrder(t, payer.token, { type: OrderType.REWARD, threadId: thread.threadId, amount: 1 });
    await t.app.ctx.db.updateTable('wallets').set({ status: 1 }).where('userId', '=', payer.id).execute();
    expect((await pay(payer.token, order.orderSn, PAY_PASSWORD)).Data).toMatchObject({ reason: 'frozen' });
    await t.app.ctx.db.updateTable('wallets').set({ status: 0 }).where('userId', '=', payer.id).execute();
    expect((await pay(payer.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
  });
});

describe('concurrent payments', () => {
  it('200 simultaneous payments of 1.00 from 50.00: exactly 50 succeed and the balance ends at 0.00', async () => {
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token);
    const payer = await fundedMember('50.00');
    // The API answers one unpaid order for the same reward however often it is asked: the other 199 are copies.
    const first = await createOrder(t, payer.token, {
      type: OrderType.REWARD,
      threadId: thread.threadId,
      amount: '1.00',
    });
    const row = await t.app.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('orderSn', '=', first.orderSn)
      .executeTakeFirstOrThrow();
    const orders: { orderSn: string }[] = [first];
    for (let i = 1; i < 200; i++) {
      const { id: _id, ...copy } = row;
      const orderSn = `${first.orderSn.slice(0, 14)}${String(i).padStart(10, '0')}`;
      await t.app.ctx.db
        .insertInto('orders')
        .values({ ...copy, orderSn })
        .execute();
      orders.push({ orderSn });
    }
    const results = await Promise.all(orders.map((o) => pay(payer.token, o.orderSn, PAY_PASSWORD)));
    const codes = results.map((r) => r.Code);
    expect(codes.filter((c) => c === 0)).toHaveLength(50);
    expect(results.filter((r) => r.Code !== 0).every((r) => (r.Data as { reason?: string }).reason === 'balance')).toBe(
      true,
    );
    expect(await wallet(payer.token)).toMatchObject({ availableAmount: '0.00', freezeAmount: '0.00' });
    expect((await wallet(author.token)).availableAmount).toBe('50.00');
    const paid = await t.app.ctx.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', payer.id)
      .where('type', '=', OrderType.REWARD)
      .where('status', '=', OrderStatus.PAID)
      .executeTakeFirstOrThrow();
    expect(Number(paid.n)).toBe(50);
    await expectLedgerMatchesWallets(t);
  }, 120_000);
});
