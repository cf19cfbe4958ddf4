/* Orders for a paid group that goes away before it is paid, or that the member already holds for ever. */
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
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
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
const returned = async (token: string) =>
  (await t.get<Page<WalletLogItem>>('/api/v3/wallet/log?perPage=50', token)).Data.pageData.filter(
    (r) => r.changeType === WalletChangeType.PAYMENT_RETURNED,
  );
const payFromWallet = (token: string, orderSn: string) =>
  t.post<TradePayResult>(
    '/api/v3/trade/pay/order',
    { orderSn, paymentType: PayType.WALLET, payPassword: PAY_PASSWORD },
    token,
  );
const startSandbox = (token: string, orderSn: string) =>
  t.post<TradePayResult>('/api/v3/trade/pay/order', { orderSn, paymentType: PayType.SANDBOX }, token);
const status = async (token: string, orderSn: string) =>
  (await t.get<OrderInfo>(`/api/v3/order.detail?orderSn=${orderSn}`, token)).Data.status;
const memberships = (userId: number) =>
  t.app.ctx.db.selectFrom('groupUser').select(['groupId', 'expiresAt']).where('userId', '=', userId).execute();
const receipts = (orderSn: string) =>
  t.app.ctx.db
    .selectFrom('paymentReceipts as r')
    .innerJoin('orders as o', 'o.id', 'r.orderId')
    .select(['r.outcome', 'r.amountCents'])
    .where('o.orderSn', '=', orderSn)
    .execute();

/** A paid group (5.00 for `days`; 0: for ever) whose members may go on buying. */
async function paidGroup(name: string, days = 30): Promise<number> {
  const created = await t.post<{ id: number }>('/api/groups.create.v2', { name, isPaid: true, fee: 5, days }, admin);
  expect(created.Code).toBe(0);
  const groupId = created.Data.id;
  const permissions = ['order.create', 'trade.pay.order'];
  expect((await t.post('/api/permission.v2', { groupId, permissions }, admin)).Code).toBe(0);
  return groupId;
}

/** A member with a pay password and `amount` in the wallet (recharged through the sandbox). */
async function fundedMember(amount: string): Promise<User> {
  const user = await buildUser(t);
  await setPayPassword(t, user);
  await recharge(t, user.token, amount);
  return user;
}

describe('a paid group deleted after its order was placed', () => {
  const deleteGroup = async (groupId: number) =>
    (await t.post('/api/groups.batchdelete.v2', { ids: String(groupId) }, admin)).Code;

  it('paying it answers -4004 and closes it, nothing debited; a provider’s payment for it goes back to the wallet', async () => {
    const groupId = await paidGroup('Deleted after ordering');
    const member = await fundedMember('6.00');
    const before = await memberships(member.id);
    const order = await createOrder(t, member.token, { type: OrderType.GROUP, groupId });
    expect(await deleteGroup(groupId)).toBe(0);

    const paid = await payFromWallet(member.token, order.orderSn);
    expect(paid.Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(paid.Message).toBe('没有可购买的这个用户组');
    expect(await status(member.token, order.orderSn)).toBe(OrderStatus.CANCELLED);
    expect((await wallet(member.token)).availableAmount).toBe('6.00');
    expect(await memberships(member.id)).toEqual(before);

    // The member had paid at the provider's page meanwhile: the money is recorded once and returned once.
    const answers = await deliverSandboxCallback(t, { orderSn: order.orderSn, amountCents: 500 }, 'paid', 2);
    expect(answers).toEqual([
      { status: 200, body: 'success' },
      { status: 200, body: 'success' },
    ]);
    expect(await status(member.token, order.orderSn)).toBe(OrderStatus.REFUNDED);
    expect((await wallet(member.token)).availableAmount).toBe('11.00');
    expect(await returned(member.token)).toMatchObject([
      { changeAvailableAmount: '5.00', orderSn: order.orderSn, changeDesc: expect.stringContaining('已删除') },
    ]);
    expect(await receipts(order.orderSn)).toEqual([{ outcome: 2, amountCents: 500 }]);
    expect(await memberships(member.id)).toEqual(before);
    const notices = await t.get<Page<{ content: string }>>('/api/v3/notification?filter[type]=rewarded', member.token);
    expect(notices.Data.pageData.map((n) => n.content)).toEqual([
      expect.stringMatching(/5\.00 元已退回你的钱包：要购买的用户组已被删除$/),
    ]);
  });

  it('a provider’s checkout does not start for it, and money it brings anyway goes back', async () => {
    const groupId = await paidGroup('Deleted before the checkout');
    const member = await fundedMember('1.00');
    const order = await createOrder(t, member.token, { type: OrderType.GROUP, groupId });
    expect(await deleteGroup(groupId)).toBe(0);
    const started = await startSandbox(member.token, order.orderSn);
    expect(started.Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(started.Data.payUrl).toBeUndefined();
    expect(await status(member.token, order.orderSn)).toBe(OrderStatus.CANCELLED);
    // Asked again, the order is closed.
    expect((await startSandbox(member.token, order.orderSn)).Data).toMatchObject({ reason: 'closed' });
    expect(await deliverSandboxCallback(t, { orderSn: order.orderSn, amountCents: 500 })).toEqual([
      { status: 200, body: 'success' },
    ]);
    expect((await wallet(member.token)).availableAmount).toBe('6.00');
    expect(await status(member.token, order.orderSn)).toBe(OrderStatus.REFUNDED);
  });

  it('paid from the wallet while it is deleted, 20 rounds: never a 500; charged only when the member joined', async () => {
    for (let round = 0; round < 20; round++) {
      const groupId = await paidGroup(`Deleted while paying ${round}`);
      const member = await fundedMember('10.00');
      // Every other round the member holds the group already (for 30 days) and pays to renew it.
      const renewing = round % 2 === 1;
      if (renewing) {
        const first = await createOrder(t, member.token, { type: OrderType.GROUP, groupId });
        expect((await payFromWallet(member.token, first.orderSn)).Code).toBe(0);
      }
      const left = renewing ? 5 : 10;
      const order = await createOrder(t, member.token, { type: OrderType.GROUP, groupId });
      // The deletion a little later each round: before the payment's transaction, during it, after it.
      const [paid, deleted] = await Promise.all([
        payFromWallet(member.token, order.orderSn),
        new Promise((resolve) => setTimeout(resolve, (round >> 1) * 6)).then(() => deleteGroup(groupId)),
      ]);
      expect(deleted).toBe(0);
      expect([0, Code.RESOURCE_NOT_FOUND]).toContain(paid.Code);
      expect((await wallet(member.token)).availableAmount).toBe(`${paid.Code === 0 ? left - 5 : left}.00`);
      const after = await status(member.token, order.orderSn);
      // Refused before it started (the order closed) or inside its transaction (the order left as it was).
      expect(paid.Code === 0 ? [OrderStatus.PAID] : [OrderStatus.CANCELLED, OrderStatus.PENDING]).toContain(after);
      expect((await memberships(member.id)).map((m) => m.groupId)).not.toContain(groupId);
    }
  });
});

describe('a paid group held for ever', () => {
  it('is not sold again, and an order placed before it was given cannot be paid (nor charged by a provider)', async () => {
    const groupId = await paidGroup('Held for ever');
    const member = await fundedMember('6.00');
    const early = await createOrder(t, member.token, { type: OrderType.GROUP, groupId });
    const given = await t.post('/api/backAdmin/users/update.user', { id: member.id, groupIds: [groupId] }, admin);
    expect(given.Code).toBe(0);
    expect(await memberships(member.id)).toEqual([{ groupId, expiresAt: null }]);

    const again = await t.post('/api/v3/order.create', { type: OrderType.GROUP, groupId }, member.token);
    expect(again.Code).toBe(Code.RESOURCE_EXIST);
    expect(again.Message).toBe('你已永久拥有这个用户组');

    // Placed before: paying it is refused and the order closed, nothing charged, the membership still without an end.
    const paid = await payFromWallet(member.token, early.orderSn);
    expect(paid).toMatchObject({ Code: Code.RESOURCE_EXIST, Message: '你已永久拥有这个用户组' });
    expect(await memberships(member.id)).toEqual([{ groupId, expiresAt: null }]);
    expect((await wallet(member.token)).availableAmount).toBe('6.00');
    expect(await status(member.token, early.orderSn)).not.toBe(OrderStatus.PENDING);

    // A provider's payment for an order placed before the group was given comes back to the wallet.
    const lateGroup = await paidGroup('Given later');
    const late = await createOrder(t, member.token, { type: OrderType.GROUP, groupId: lateGroup });
    const givenLate = await t.post('/api/backAdmin/users/update.user', { id: member.id, groupIds: [lateGroup] }, admin);
    expect(givenLate.Code).toBe(0);
    await deliverSandboxCallback(t, { orderSn: late.orderSn, amountCents: 500 });
    expect(await receipts(late.orderSn)).toEqual([{ outcome: 2, amountCents: 500 }]);
    expect(await returned(member.token)).toHaveLength(1);
    expect((await wallet(member.token)).availableAmount).toBe('11.00');
    expect(await memberships(member.id)).toEqual([{ groupId: lateGroup, expiresAt: null }]);
  });

  it('the administrators and the guests are not for sale, even marked paid', async () => {
    const member = await fundedMember('6.00');
    for (const groupId of [1, 7]) {
      // As the back office may leave them (a paid flag and a fee on any group).
      await t.app.ctx.db.updateTable('groups').set({ isPaid: 1, feeCents: 500 }).where('id', '=', groupId).execute();
      const res = await t.post('/api/v3/order.create', { type: OrderType.GROUP, groupId }, member.token);
      expect(res.Code, `group ${groupId}`).toBe(Code.RESOURCE_NOT_FOUND);
    }
  });

  it('bought for ever (a group of 0 days) is not sold again; one held for a time still is', async () => {
    const forEver = await paidGroup('For ever, 0 days', 0);
    const member = await fundedMember('16.00');
    const order = await createOrder(t, member.token, { type: OrderType.GROUP, groupId: forEver });
    expect((await payFromWallet(member.token, order.orderSn)).Code).toBe(0);
    expect(await memberships(member.id)).toEqual([{ groupId: forEver, expiresAt: null }]);
    const again = await t.post('/api/v3/order.create', { type: OrderType.GROUP, groupId: forEver }, member.token);
    expect(again.Code).toBe(Code.RESOURCE_EXIST);

    // A membership with an end may be extended.
    const monthly = await paidGroup('Monthly, renewable');
    for (let i = 0; i < 2; i++) {
      const next = await createOrder(t, member.token, { type: OrderType.GROUP, groupId: monthly });
      expect((await payFromWallet(member.token, next.orderSn)).Code).toBe(0);
    }
    const [held] = await memberships(member.id);
    expect(held!.groupId).toBe(monthly);
    expect((Date.parse(held!.expiresAt!) - Date.now()) / 86_400_000).toBeGreaterThan(59.9);
  });
});
