/* Orders, buying side: what money buys (paid threads, rewards, paid groups, the joining fee). */
import {
  Code,
  OrderStatus,
  OrderType,
  PayType,
  WalletChangeType,
  type OrderInfo,
  type Page,
  type ThreadDetail,
  type TradePayResult,
  type WalletInfo,
  type WalletLogItem,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread } from '../../test/forum-fixtures.js';
import {
  createOrder,
  expectLedgerMatchesWallets,
  PAY_PASSWORD,
  recharge,
  setPayPassword,
  setSettings,
} from '../../test/money-fixtures.js';

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

const wallet = async (token: string) => (await t.get<WalletInfo>('/api/v3/wallet/user', token)).Data;
const ledger = async (token: string, query = '') =>
  (await t.get<Page<WalletLogItem>>(`/api/v3/wallet/log${query}`, token)).Data;
const pay = (token: string, orderSn: string, payPassword?: string, paymentType: number = PayType.WALLET) =>
  t.post<TradePayResult>(
    '/api/v3/trade/pay/order',
    { orderSn, paymentType, ...(payPassword === undefined ? {} : { payPassword }) },
    token,
  );
const setPrice = (threadId: number, cents: number) =>
  t.app.ctx.db.updateTable('threads').set({ priceCents: cents }).where('id', '=', threadId).execute();

/** A member with a pay password and `amount` in the wallet (recharged through the sandbox). */
async function fundedMember(amount: string): Promise<User> {
  const user = await buildUser(t);
  await setPayPassword(t, user);
  if (amount !== '0.00') await recharge(t, user.token, amount);
  return user;
}

describe('what money buys', () => {
  it('buys a paid thread once, splitting the price by the site’s shares', async () => {
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token);
    await setPrice(thread.threadId, 300);
    const buyer = await fundedMember('10.00');
    expect((await t.post('/api/v3/order.create', { type: 3, threadId: thread.threadId }, author.token)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    await setSettings(t, admin, { siteAuthorScale: 7, siteMasterScale: 3 });
    try {
      const order = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId: thread.threadId });
      expect(order).toMatchObject({ amount: '3.00', authorAmount: '2.10', masterAmount: '0.90', payeeId: author.id });
      expect(order.title).toBe(thread.title);
      expect((await pay(buyer.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
    } finally {
      await setSettings(t, admin, { siteAuthorScale: 10, siteMasterScale: 0 });
    }
    expect((await wallet(buyer.token)).availableAmount).toBe('7.00');
    expect((await wallet(author.token)).availableAmount).toBe('2.10');
    expect((await ledger(author.token)).pageData[0]).toMatchObject({
      changeType: WalletChangeType.THREAD_INCOME,
      changeAvailableAmount: '2.10',
    });
    expect((await ledger(buyer.token)).pageData[0]).toMatchObject({
      changeType: WalletChangeType.THREAD_EXPENSE,
      changeAvailableAmount: '-3.00',
    });
    // Ordering it again answers the order that bought it: paid, nothing to pay.
    const again = await t.post<OrderInfo>('/api/v3/order.create', { type: 3, threadId: thread.threadId }, buyer.token);
    expect(again.Data).toMatchObject({ status: OrderStatus.PAID, threadId: thread.threadId });
    // The author is told (a financial notice).
    const unread = await t.get<{ financialUnread: number }>('/api/v3/unreadnotification', author.token);
    expect(unread.Data.financialUnread).toBe(1);
    // A free thread is not for sale.
    const free = await buildThread(t, author.token);
    expect((await t.post('/api/v3/order.create', { type: 3, threadId: free.threadId }, buyer.token)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
  });

  it('opens a paid thread to its buyer once paid, and only then', async () => {
    // Members do not hold insertPay by default; the administrator does.
    const created = await t.post<{ threadId: number }>(
      '/api/v3/thread.create',
      {
        categoryId: 1,
        title: 'A paid guide',
        content: { text: 'Free part first. The secret is PINEAPPLE.' },
        price: '2.50',
        freeWords: 0.4,
      },
      admin,
    );
    expect(created.Code).toBe(0);
    const threadId = created.Data.threadId;
    const buyer = await fundedMember('5.00');
    const read = async () =>
      (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, buyer.token)).Data;
    const before = await read();
    expect(before).toMatchObject({ price: '2.50', paid: false, canViewFull: false });
    expect(JSON.stringify(before)).not.toContain('PINEAPPLE');
    expect(JSON.stringify(before)).toContain('Free part first');
    const order = await createOrder(t, buyer.token, { type: OrderType.THREAD, threadId });
    expect((await pay(buyer.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
    const after = await read();
    expect(after).toMatchObject({ paid: true, canViewFull: true, paidCount: 1 });
    expect(JSON.stringify(after.content)).toContain('PINEAPPLE');
    const buyers = await t.get<Page<{ userId: number }>>(`/api/v3/thread.paidusers?threadId=${threadId}&type=3`);
    expect(buyers.Data.pageData.map((b) => b.userId)).toEqual([buyer.id]);
  });

  it('rewards a thread, anonymously too; never one’s own; the author is told', async () => {
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token);
    const fan = await fundedMember('5.00');
    const own = await t.post('/api/v3/order.create', { type: 2, threadId: thread.threadId, amount: 1 }, author.token);
    expect(own.Code).toBe(Code.INVALID_PARAMETER);
    const order = await createOrder(t, fan.token, {
      type: OrderType.REWARD,
      threadId: thread.threadId,
      rewardAmount: '1.50',
      isAnonymous: true,
    });
    expect(order).toMatchObject({ amount: '1.50', isAnonymous: true });
    expect((await pay(fan.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
    expect((await wallet(author.token)).availableAmount).toBe('1.50');
    const notices = await t.get<Page<{ title: string; content: string; fromUser?: unknown }>>(
      '/api/v3/notification?filter[type]=rewarded',
      author.token,
    );
    expect(notices.Data.pageData).toHaveLength(1);
    expect(notices.Data.pageData[0]!.content).toContain('匿名用户');
    expect(notices.Data.pageData[0]!.content).not.toContain(fan.username);
    expect((await t.post('/api/v3/order.create', { type: 2, threadId: 999_999, amount: 1 }, fan.token)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
  });

  it('buys a paid group for its days', async () => {
    const created = await t.post<{ id: number }>(
      '/api/groups.create.v2',
      { name: 'VIP', isPaid: true, fee: 5, days: 30 },
      admin,
    );
    expect(created.Code).toBe(0);
    const groupId = created.Data.id;
    const member = await fundedMember('6.00');
    // A group that is not for sale.
    expect((await t.post('/api/v3/order.create', { type: 4, groupId: 10 }, member.token)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    const order = await createOrder(t, member.token, { type: OrderType.GROUP, groupId });
    expect(order).toMatchObject({ amount: '5.00', title: 'VIP', masterAmount: '5.00' });
    expect((await pay(member.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
    const held = await t.app.ctx.db.selectFrom('groupUser').selectAll().where('userId', '=', member.id).execute();
    expect(held).toHaveLength(1);
    expect(held[0]!.groupId).toBe(groupId);
    const days = (Date.parse(held[0]!.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect((await wallet(member.token)).availableAmount).toBe('1.00');
  });

  it('takes the joining fee of a paid site', async () => {
    const member = await fundedMember('20.00');
    const refused = await t.post('/api/v3/order.create', { type: OrderType.REGISTER }, member.token);
    expect(refused.Code).toBe(Code.INVALID_PARAMETER);
    await setSettings(t, admin, { siteMode: 'pay', sitePrice: '9.90', siteExpire: 365 });
    try {
      // Joined while the site was free: nothing to pay.
      expect((await t.post('/api/v3/order.create', { type: OrderType.REGISTER }, member.token)).Code).toBe(
        Code.RESOURCE_EXIST,
      );
      await t.app.ctx.db
        .updateTable('users')
        .set({ paidUntil: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', member.id)
        .execute();
      // Owing the fee: -3006 for everything but paying it.
      expect((await t.get('/api/v3/thread.list', member.token)).Code).toBe(Code.JUMP_TO_PAY_SITE);
      expect((await t.post('/api/v3/order.create', { type: OrderType.RECHARGE, amount: 5 }, member.token)).Code).toBe(
        Code.JUMP_TO_PAY_SITE,
      );
      const order = await createOrder(t, member.token, { type: OrderType.REGISTER });
      expect(order.amount).toBe('9.90');
      expect((await pay(member.token, order.orderSn, PAY_PASSWORD)).Code).toBe(0);
      expect((await t.get('/api/v3/thread.list', member.token)).Code).toBe(0);
      const user = await t.app.ctx.db
        .selectFrom('users')
        .select(['paidAt', 'paidUntil'])
        .where('id', '=', member.id)
        .executeTakeFirstOrThrow();
      expect(Date.parse(user.paidUntil!) - Date.now()).toBeGreaterThan(364 * 86_400_000);
      expect((await wallet(member.token)).availableAmount).toBe('10.10');
    } finally {
      await setSettings(t, admin, { siteMode: 'public', sitePrice: '0.00', siteExpire: 0 });
    }
  });
});
