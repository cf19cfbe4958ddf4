import {
  Code,
  OrderStatus,
  OrderType,
  PayType,
  WalletChangeType,
  type FinanceStats,
  type OrderInfo,
  type Page,
  type TradePayResult,
  type WalletLogItem,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildThread } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import {
  balances,
  createOrder,
  deliverSandboxCallback,
  expectLedgerMatchesWallets,
  fund,
  PAY_PASSWORD,
  setPayPassword,
} from '../../test/money-fixtures.js';

/*
 * One purchase per member and thing (docs/money.md): however two payments for one paid thread arrive, at once from
 * the wallet or one after the other through a provider, the member pays once and the author is credited once; money
 * that arrives for what was bought already goes back to the buyer's wallet, with a notice. And the pay password's
 * five tries cannot be raced.
 */

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer({ env: { PAYMENT_SANDBOX: '1' } });
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await expectLedgerMatchesWallets(t);
  await t.close();
});

const pay = (token: string, orderSn: string, payPassword = PAY_PASSWORD) =>
  t.post<TradePayResult>('/api/v3/trade/pay/order', { orderSn, paymentType: PayType.WALLET, payPassword }, token);
const startSandbox = (token: string, orderSn: string) =>
  t.post<TradePayResult>('/api/v3/trade/pay/order', { orderSn, paymentType: PayType.SANDBOX }, token);

async function fundedMember(amount: string): Promise<User> {
  const user = await buildUser(t);
  await setPayPassword(t, user);
  await fund(t, admin, user.id, amount);
  return user;
}

/** A thread of a new author priced at `cents`. */
async function paidThread(cents: number): Promise<{ author: User; threadId: number }> {
  const author = await buildUser(t);
  const thread = await buildThread(t, author.token);
  await t.app.ctx.db.updateTable('threads').set({ priceCents: cents }).where('id', '=', thread.threadId).execute();
  return { author, threadId: thread.threadId };
}

/** Two orders of one member for one thread: the API makes a second one when it differs (here: anonymous). */
async function twoOrders(buyer: User, threadId: number): Promise<[OrderInfo, OrderInfo]> {
  const a = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId });
  const b = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId, isAnonymous: true });
  expect(b.orderSn).not.toBe(a.orderSn);
  return [a, b];
}

const purchases = async (userId: number, threadId: number) =>
  (
    await t.app.ctx.db
      .selectFrom('purchases')
      .select(['orderId'])
      .where('userId', '=', userId)
      .where('thingId', '=', threadId)
      .execute()
  ).length;

const ledgerOf = async (token: string) =>
  (await t.get<Page<WalletLogItem>>('/api/v3/wallet/log?perPage=50', token)).Data.pageData;

describe('a paid thread is bought once', () => {
  it('two wallet payments of two orders at the same moment, 20 rounds: one pays, nothing else moves', async () => {
    for (let round = 0; round < 20; round++) {
      const { author, threadId } = await paidThread(300);
      const buyer = await fundedMember('10.00');
      const [a, b] = await twoOrders(buyer, threadId);
      const answers = await Promise.all([pay(buyer.token, a.orderSn), pay(buyer.token, b.orderSn)]);
      // One pays; the other is refused as bought (or, on SQLite, it may simply come second: bought too).
      expect(answers.filter((r) => r.Code === 0)).toHaveLength(1);
      expect(answers.filter((r) => r.Code === Code.RESOURCE_EXIST)).toHaveLength(1);
      expect(await balances(t, buyer.id)).toMatchObject({ available: 700 });
      expect(await balances(t, author.id)).toMatchObject({ available: 300 });
      expect(await purchases(buyer.id, threadId)).toBe(1);
      // The order that lost is still unpaid (it will expire); paying it again is refused as bought.
      const loser = answers[0]!.Code === 0 ? b : a;
      expect((await pay(buyer.token, loser.orderSn)).Code).toBe(Code.RESOURCE_EXIST);
      expect(await balances(t, buyer.id)).toMatchObject({ available: 700 });
    }
    await expectLedgerMatchesWallets(t);
  }, 180_000);

  it('two sandbox payments one after the other, 20 rounds: the second goes back to the wallet, once', async () => {
    for (let round = 0; round < 20; round++) {
      const { author, threadId } = await paidThread(300);
      const buyer = await buildUser(t);
      const [a, b] = await twoOrders(buyer, threadId);
      expect((await startSandbox(buyer.token, a.orderSn)).Code).toBe(0);
      expect((await startSandbox(buyer.token, b.orderSn)).Code).toBe(0);
      await deliverSandboxCallback(t, { orderSn: a.orderSn, amountCents: 300 });
      // The second payment's callback, delivered three times as providers do.
      await deliverSandboxCallback(t, { orderSn: b.orderSn, amountCents: 300 }, 'paid', 3);

      expect(await balances(t, author.id)).toMatchObject({ available: 300 });
      expect(await balances(t, buyer.id)).toMatchObject({ available: 300 });
      expect(await purchases(buyer.id, threadId)).toBe(1);
      const statuses = await t.app.ctx.db
        .selectFrom('orders')
        .select(['orderSn', 'status'])
        .where('orderSn', 'in', [a.orderSn, b.orderSn])
        .execute();
      expect(Object.fromEntries(statuses.map((o) => [o.orderSn, o.status]))).toEqual({
        [a.orderSn]: OrderStatus.PAID,
        [b.orderSn]: OrderStatus.REFUNDED,
      });
      const returned = (await ledgerOf(buyer.token)).filter((r) => r.changeType === WalletChangeType.PAYMENT_RETURNED);
      expect(returned).toHaveLength(1);
      expect(returned[0]).toMatchObject({ changeAvailableAmount: '3.00', orderSn: b.orderSn });
    }
    await expectLedgerMatchesWallets(t);
  }, 180_000);

  it('two sandbox payments arriving at the same moment: one buys, one goes back', async () => {
    for (let round = 0; round < 5; round++) {
      const { author, threadId } = await paidThread(250);
      const buyer = await buildUser(t);
      const [a, b] = await twoOrders(buyer, threadId);
      await Promise.all([
        deliverSandboxCallback(t, { orderSn: a.orderSn, amountCents: 250 }),
        deliverSandboxCallback(t, { orderSn: b.orderSn, amountCents: 250 }),
      ]);
      expect(await balances(t, author.id)).toMatchObject({ available: 250 });
      expect(await balances(t, buyer.id)).toMatchObject({ available: 250 });
      expect(await purchases(buyer.id, threadId)).toBe(1);
    }
  });

  it('tells the buyer that the money went back, and why', async () => {
    const { threadId } = await paidThread(300);
    const buyer = await buildUser(t, { nickname: '小明同学' });
    const [a, b] = await twoOrders(buyer, threadId);
    await deliverSandboxCallback(t, { orderSn: a.orderSn, amountCents: 300 });
    await deliverSandboxCallback(t, { orderSn: b.orderSn, amountCents: 300 });
    const notices = await t.get<Page<{ title: string; content: string }>>(
      '/api/v3/notification?filter[type]=rewarded',
      buyer.token,
    );
    expect(notices.Data.pageData).toHaveLength(1);
    expect(notices.Data.pageData[0]!.content).toMatch(
      /^小明同学，你为“.+”支付的 3\.00 元已退回你的钱包：你已购买过它$/,
    );
  });

  it('money for an order paid already (from the wallet, then by a provider) goes back to the wallet', async () => {
    const { author, threadId } = await paidThread(200);
    const buyer = await fundedMember('5.00');
    const order = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId });
    expect((await startSandbox(buyer.token, order.orderSn)).Code).toBe(0);
    expect((await pay(buyer.token, order.orderSn)).Code).toBe(0);
    await deliverSandboxCallback(t, { orderSn: order.orderSn, amountCents: 200 }, 'paid', 2);
    expect(await balances(t, buyer.id)).toMatchObject({ available: 500 });
    expect(await balances(t, author.id)).toMatchObject({ available: 200 });
    const returned = (await ledgerOf(buyer.token)).filter((r) => r.changeType === WalletChangeType.PAYMENT_RETURNED);
    expect(returned).toHaveLength(1);
  });

  it('answers the paid order when the member orders a thread they bought', async () => {
    const { threadId } = await paidThread(100);
    const buyer = await fundedMember('5.00');
    const order = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId });
    expect((await pay(buyer.token, order.orderSn)).Code).toBe(0);
    const again = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId });
    expect(again).toMatchObject({ orderSn: order.orderSn, status: OrderStatus.PAID });
  });
});

describe('a reopened pay dialog', () => {
  it('reuses the unpaid order for the same thing, and the finance figures count paid orders only', async () => {
    const before = (await t.get<FinanceStats>('/api/statistic/finance.v2', admin)).Data.orderCount;
    const { threadId } = await paidThread(100);
    const buyer = await fundedMember('5.00');
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId }));
    expect(new Set(made.map((o) => o.orderSn)).size).toBe(1);
    // Rewards of the same amount are one order until paid; another amount is another order.
    const reward = () => createOrder(t, buyer.token, { type: OrderType.REWARD, threadId, amount: '1.00' });
    const [r1, r2] = [await reward(), await reward()];
    expect(r2.orderSn).toBe(r1.orderSn);
    const r3 = await createOrder(t, buyer.token, { type: OrderType.REWARD, threadId, amount: '2.00' });
    expect(r3.orderSn).not.toBe(r1.orderSn);
    expect((await t.get<FinanceStats>('/api/statistic/finance.v2', admin)).Data.orderCount).toBe(before);
    expect((await pay(buyer.token, r1.orderSn)).Code).toBe(0);
    // Once paid, the next reward of that amount is a new order.
    expect((await reward()).orderSn).not.toBe(r1.orderSn);
    expect((await t.get<FinanceStats>('/api/statistic/finance.v2', admin)).Data.orderCount).toBe(before + 1);
  });
});

describe('the pay password', () => {
  /** Answers that say something about the password: a wrong one (with the tries left, or the lock it caused). */
  const checked = (r: { Data: unknown }) => (r.Data as { reason?: string } | null)?.reason === 'payPassword';

  it('30 concurrent wrong ones: exactly 5 are checked, then it is locked (payments)', async () => {
    const { threadId } = await paidThread(100);
    const buyer = await fundedMember('5.00');
    const order = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId });
    const answers = await Promise.all(Array.from({ length: 30 }, () => pay(buyer.token, order.orderSn, '000000')));
    expect(answers.filter(checked)).toHaveLength(5);
    expect(answers.filter((r) => r.Code === Code.TOO_MANY_REQUESTS)).toHaveLength(26);
    // Locked: the right one is refused too, and nothing moved.
    expect((await pay(buyer.token, order.orderSn)).Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(await balances(t, buyer.id)).toMatchObject({ available: 500 });
  });

  it('withdrawing needs it too, with the same five tries and lock; nothing is frozen meanwhile', async () => {
    const member = await fundedMember('50.00');
    const apply = (payPassword?: string) =>
      t.post(
        '/api/v3/wallet/cash',
        { cashApplyAmount: '10.00', receiveAccount: 'me@pay', ...(payPassword ? { payPassword } : {}) },
        member.token,
      );
    const missing = await apply();
    expect(missing).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'payPassword' } });
    for (let left = 4; left >= 1; left--) {
      expect(await apply('111111')).toMatchObject({ Code: Code.PAYMENT_FAILED, Data: { triesLeft: left } });
    }
    expect((await apply('111111')).Code).toBe(Code.TOO_MANY_REQUESTS);
    expect((await apply(PAY_PASSWORD)).Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(await balances(t, member.id)).toMatchObject({ available: 5000, frozen: 0 });
    // Paying from the wallet shares the lock.
    const { threadId } = await paidThread(100);
    const order = await createOrder(t, member.token, { type: OrderType.THREAD, threadId });
    expect((await pay(member.token, order.orderSn)).Code).toBe(Code.TOO_MANY_REQUESTS);
    await t.app.ctx.db
      .updateTable('wallets')
      .set({ payLockedUntil: new Date(Date.now() - 1000).toISOString() })
      .where('userId', '=', member.id)
      .execute();
    expect((await apply(PAY_PASSWORD)).Code).toBe(0);
    expect(await balances(t, member.id)).toMatchObject({ available: 4000, frozen: 1000 });
  });

  it('30 concurrent wrong ones on a withdrawal: exactly 5 are checked', async () => {
    const member = await fundedMember('50.00');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.post(
          '/api/v3/wallet/cash',
          { cashApplyAmount: '1.00', receiveAccount: 'x', payPassword: '999999' },
          member.token,
        ),
      ),
    );
    expect(answers.filter(checked)).toHaveLength(5);
    expect(await balances(t, member.id)).toMatchObject({ available: 5000, frozen: 0 });
  });
});
