import {
  Code,
  mentionMarkdown,
  OrderStatus,
  OrderType,
  PayType,
  RedPacketStatus,
  WalletChangeType,
  type NotificationItem,
  type OrderInfo,
  type Page,
  type RedPacketPart,
  type ThreadDetail,
  type ThreadItem,
  type TradePayResult,
} from '@luntan/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import {
  balances,
  deliverSandboxCallback,
  expectLedgerMatches,
  expectLedgerMatchesWallets,
  fund,
  PAY_PASSWORD,
  setPayPassword,
} from '../../test/money-fixtures.js';

/** A red packet paid through a provider (order type 9): a hidden draft until its order is paid, then published. */
const t = useTestServer({ env: { PAYMENT_SANDBOX: '1' } });

afterAll(async () => {
  await expectLedgerMatchesWallets(t.current);
});

type Member = Awaited<ReturnType<typeof t.buildMember>>;

let serial = 0;
const word = () => `红包暗号${Date.now().toString(36)}${++serial}`;

const packetBody = (over: Record<string, unknown> = {}) => ({
  rule: 0,
  condition: 0,
  number: 2,
  price: '1.00',
  payment: 'provider',
  ...over,
});

const create = (token: string, body: Record<string, unknown>, text: string, extra: Record<string, unknown> = {}) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title: '红包帖', content: { text, indexes: { 106: { tomId: '106', body } } }, ...extra },
    token,
  );

const update = (
  token: string,
  threadId: number,
  part: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  text = '改过的红包帖',
) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.update',
    { threadId, content: { text, indexes: { 106: { tomId: '106', ...part } } }, ...extra },
    token,
  );

const detail = (threadId: number, token?: string) =>
  t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, token);
const partOf = async (threadId: number, token?: string) =>
  (await detail(threadId, token)).Data.content.indexes['106']!.body as RedPacketPart;
const packetRow = (threadId: number) =>
  t.app.ctx.db.selectFrom('threadRedPackets').selectAll().where('threadId', '=', threadId).executeTakeFirstOrThrow();
const orderRow = (orderSn: string) =>
  t.app.ctx.db.selectFrom('orders').selectAll().where('orderSn', '=', orderSn).executeTakeFirstOrThrow();
const threadRow = (threadId: number) =>
  t.app.ctx.db.selectFrom('threads').selectAll().where('id', '=', threadId).executeTakeFirstOrThrow();
const ledgerOf = (userId: number) =>
  t.app.ctx.db
    .selectFrom('walletLogs')
    .select(['changeType', 'changeAvailableCents', 'changeFrozenCents', 'orderId'])
    .where('userId', '=', userId)
    .orderBy('id')
    .execute();

const listed = async (keyword: string, token?: string) => {
  const res = await t.get<Page<ThreadItem>>(
    `/api/v3/thread.list?perPage=50&filter[search]=${encodeURIComponent(keyword)}`,
    token,
  );
  expect(res.Code).toBe(0);
  return res.Data.pageData.map((d) => d.threadId);
};
const newest = async () =>
  (await t.get<Page<ThreadItem>>('/api/v3/thread.list?filter[sort]=1&perPage=50')).Data.pageData.map((d) => d.threadId);
const notices = async (token: string) =>
  (await t.get<Page<NotificationItem>>('/api/v3/notification?perPage=50', token)).Data.pageData;

/** The sandbox checkout paying the order, as the payer's browser does it. */
async function payThroughSandbox(member: Member, orderSn: string) {
  const started = await t.post<TradePayResult>(
    '/api/v3/trade/pay/order',
    { orderSn, paymentType: PayType.SANDBOX },
    member.token,
  );
  expect(started.Code).toBe(0);
  expect(started.Data.payUrl).toContain(`orderSn=${orderSn}`);
  const done = await t.post<{ status: number }>(
    '/api/v3/pay/sandbox/complete',
    { orderSn, outcome: 'paid' },
    member.token,
  );
  expect(done).toMatchObject({ Code: 0, Data: { status: OrderStatus.PAID } });
}

/** Makes the order's time pass: its expiry timer comes due and is delivered. */
async function expireOrder(orderId: number) {
  const db = t.app.ctx.db;
  const past = new Date(Date.now() - 1000).toISOString();
  await db.updateTable('orders').set({ expiresAt: past }).where('id', '=', orderId).execute();
  const events = await db
    .selectFrom('domainEvents')
    .select(['id', 'payload'])
    .where('name', '=', 'order.expiry_due')
    .execute();
  const event = events.find((e) => (JSON.parse(e.payload) as { orderId: number }).orderId === orderId)!;
  await db.updateTable('eventDeliveries').set({ nextAttemptAt: past }).where('eventId', '=', event.id).execute();
  await t.app.ctx.events.drain();
}

describe('posting a red packet paid through a provider', () => {
  it('stores a hidden draft, a red packet waiting for its order and an order of type 9 for the total', async () => {
    const author = await t.buildMember();
    const [stranger, mentioned] = [await t.buildMember(), await t.buildMember()];
    const keyword = word();
    const made = await create(
      author.token,
      packetBody({ number: 3, price: '1.50' }),
      `${keyword} ${mentionMarkdown({ id: mentioned.id, nickname: mentioned.username })}`,
    );
    expect(made.Code).toBe(0);
    const id = made.Data.threadId;
    expect(made.Data.isDraft).toBe(true);

    // The answer carries what paying needs: the author's order.
    const part = made.Data.content.indexes['106']!.body as RedPacketPart;
    expect(part).toMatchObject({
      unpaid: true,
      status: 0,
      isDone: false,
      money: '4.50',
      remainNumber: 3,
      receivers: [],
    });
    expect(part.order).toMatchObject({
      type: OrderType.RED_PACKET,
      status: OrderStatus.PENDING,
      amount: '4.50',
      userId: author.id,
      threadId: id,
      payeeId: null,
    });
    const order = await orderRow(part.order!.orderSn);
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBeGreaterThanOrEqual(599_000);
    expect(await packetRow(id)).toMatchObject({ status: RedPacketStatus.PENDING, orderId: order.id, moneyCents: 450 });
    expect(await threadRow(id)).toMatchObject({ isDraft: 1 });

    // Nothing moved, and nobody but the author sees it: not the thread, not its red packet, not a list or a search.
    expect(await balances(t.current, author.id)).toMatchObject({ available: 0, frozen: 0 });
    expect((await detail(id, stranger.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await detail(id)).Code).not.toBe(0);
    expect((await detail(id, t.admin)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get(`/api/v3/check.user.get.redpacket?threadId=${id}`, stranger.token)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    expect((await t.post('/api/v3/posts.create', { id, content: '抢红包' }, stranger.token)).Code).not.toBe(0);
    expect(await listed(keyword)).toEqual([]);
    expect(await newest()).not.toContain(id);
    expect(await notices(mentioned.token)).toEqual([]);
    // The author reads the draft, and the order is theirs only.
    expect((await detail(id, author.token)).Code).toBe(0);
    expect((await partOf(id, author.token)).order?.orderSn).toBe(order.orderSn);
    expect((await t.get(`/api/v3/order.detail?orderSn=${order.orderSn}`, stranger.token)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
  });

  it('paying through the sandbox funds the packets, publishes the thread and starts its 24 hours', async () => {
    const author = await t.buildMember();
    const [a, b, mentioned] = [await t.buildMember(), await t.buildMember(), await t.buildMember()];
    const keyword = word();
    const made = await create(
      author.token,
      packetBody(),
      `${keyword} ${mentionMarkdown({ id: mentioned.id, nickname: mentioned.username })}`,
    );
    const id = made.Data.threadId;
    const { orderSn } = (made.Data.content.indexes['106']!.body as RedPacketPart).order!;

    // The provider's callback, delivered three times (the same payment): it pays once.
    const started = await t.post('/api/v3/trade/pay/order', { orderSn, paymentType: PayType.SANDBOX }, author.token);
    expect(started.Code).toBe(0);
    const answers = await deliverSandboxCallback(t.current, { orderSn, amountCents: 200 }, 'paid', 3);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const order = await orderRow(orderSn);
    expect(order).toMatchObject({ status: OrderStatus.PAID, paymentType: PayType.SANDBOX });
    expect(await balances(t.current, author.id)).toMatchObject({ available: 0, frozen: 200 });
    expect(await ledgerOf(author.id)).toEqual([
      {
        changeType: WalletChangeType.RED_PACKET_PAID,
        changeAvailableCents: 0,
        changeFrozenCents: 200,
        orderId: order.id,
      },
    ]);
    expect(await threadRow(id)).toMatchObject({ isDraft: 0, isApproved: 1 });
    const row = await packetRow(id);
    expect(row).toMatchObject({ status: RedPacketStatus.VALID, orderId: order.id });
    expect(Date.parse(row.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const timers = await t.app.ctx.db
      .selectFrom('domainEvents')
      .select(['payload', 'dueAt'])
      .where('name', '=', 'red_packet.expiry_due')
      .execute();
    const timer = timers.filter((e) => (JSON.parse(e.payload) as { threadId: number }).threadId === id);
    expect(timer).toHaveLength(1);
    expect(timer[0]!.dueAt).toBe(row.expiresAt);

    // Published: everyone reads it, lists and search find it, the mention is told.
    expect((await partOf(id, a.token)).status).toBe(1);
    expect(await partOf(id, author.token)).toMatchObject({ unpaid: false, order: null, remainMoney: '2.00' });
    expect(await listed(keyword)).toEqual([id]);
    expect(await newest()).toContain(id);
    expect((await notices(mentioned.token)).map((n) => n.threadId)).toContain(id);

    // The packets are handed out from the frozen money as a wallet-paid red packet's are.
    expect((await t.post('/api/v3/posts.create', { id, content: '谢谢老板' }, a.token)).Code).toBe(0);
    expect((await t.post('/api/v3/posts.create', { id, content: '谢谢' }, b.token)).Code).toBe(0);
    expect(await balances(t.current, a.id)).toMatchObject({ available: 100, frozen: 0 });
    expect(await balances(t.current, b.id)).toMatchObject({ available: 100, frozen: 0 });
    expect(await balances(t.current, author.id)).toMatchObject({ available: 0, frozen: 0 });
    expect((await ledgerOf(author.id)).map((r) => [r.changeType, r.changeFrozenCents])).toEqual([
      [WalletChangeType.RED_PACKET_PAID, 200],
      [WalletChangeType.RED_PACKET_EXPENSE, -100],
      [WalletChangeType.RED_PACKET_EXPENSE, -100],
    ]);
    await expectLedgerMatches(t.current, author.id);

    // order.paid heard again: nothing moves.
    await t.app.ctx.db.transaction().execute((trx) =>
      t.app.ctx.events.emit(trx, 'order.paid', {
        orderId: order.id,
        userId: author.id,
        payeeId: null,
        type: OrderType.RED_PACKET,
        threadId: id,
        amountCents: 200,
      }),
    );
    await t.app.ctx.events.drain();
    expect(await ledgerOf(author.id)).toHaveLength(3);
    expect(await orderRow(orderSn)).toMatchObject({ status: OrderStatus.PAID });
    // A second payment of the paid order (another transaction) goes back to the wallet, as for every order.
    await deliverSandboxCallback(t.current, { orderSn, amountCents: 200 }, 'paid', 2);
    expect((await ledgerOf(author.id)).slice(3)).toEqual([
      {
        changeType: WalletChangeType.PAYMENT_RETURNED,
        changeAvailableCents: 200,
        changeFrozenCents: 0,
        orderId: order.id,
      },
    ]);
    expect(await packetRow(id)).toMatchObject({ status: RedPacketStatus.VALID, remainNumber: 0 });
    expect(await balances(t.current, author.id)).toMatchObject({ available: 200, frozen: 0 });
  });

  it('an order nobody paid expires: the thread stays its author’s draft, nothing credited; posting again pays anew', async () => {
    const author = await t.buildMember();
    const stranger = await t.buildMember();
    const keyword = word();
    const made = await create(author.token, packetBody(), keyword);
    const id = made.Data.threadId;
    const first = (made.Data.content.indexes['106']!.body as RedPacketPart).order!;
    await expireOrder(first.id);

    expect(await orderRow(first.orderSn)).toMatchObject({ status: OrderStatus.EXPIRED });
    expect(await threadRow(id)).toMatchObject({ isDraft: 1, deletedAt: null });
    expect(await packetRow(id)).toMatchObject({ status: RedPacketStatus.PENDING });
    expect((await detail(id, stranger.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(await listed(keyword)).toEqual([]);
    expect(await ledgerOf(author.id)).toEqual([]);
    expect((await partOf(id, author.token)).order?.status).toBe(OrderStatus.EXPIRED);
    const late = await t.post(
      '/api/v3/trade/pay/order',
      { orderSn: first.orderSn, paymentType: PayType.SANDBOX },
      author.token,
    );
    expect(late.Code).toBe(Code.RESOURCE_EXPIRED);

    // Publishing it sends the same red packet again: a new order; the thread waits for it.
    const again = await update(author.token, id, { body: packetBody() }, { title: '红包帖', draft: false }, keyword);
    expect(again.Code).toBe(0);
    expect(again.Data.isDraft).toBe(true);
    const second = (again.Data.content.indexes['106']!.body as RedPacketPart).order!;
    expect(second.orderSn).not.toBe(first.orderSn);
    expect(second.status).toBe(OrderStatus.PENDING);
    // Sent again while it can be paid, the order is the same one.
    const same = await update(author.token, id, { body: packetBody() }, { draft: false }, keyword);
    expect((same.Data.content.indexes['106']!.body as RedPacketPart).order?.orderSn).toBe(second.orderSn);

    await payThroughSandbox(author, second.orderSn);
    expect(await threadRow(id)).toMatchObject({ isDraft: 0 });
    expect(await balances(t.current, author.id)).toMatchObject({ available: 0, frozen: 200 });
    expect(await listed(keyword)).toEqual([id]);
  });

  it('money for an order that no longer pays a red packet goes back to the wallet, once', async () => {
    const author = await t.buildMember();
    // Changed while unpaid: a new order, the old one cancelled; its late payment is returned.
    const made = await create(author.token, packetBody(), word());
    const id = made.Data.threadId;
    const first = (made.Data.content.indexes['106']!.body as RedPacketPart).order!;
    const changed = await update(author.token, id, { body: packetBody({ price: '2.00' }) });
    expect(changed.Code).toBe(0);
    const second = (changed.Data.content.indexes['106']!.body as RedPacketPart).order!;
    expect(second).toMatchObject({ amount: '4.00', status: OrderStatus.PENDING });
    expect(await orderRow(first.orderSn)).toMatchObject({ status: OrderStatus.CANCELLED });
    await deliverSandboxCallback(t.current, { orderSn: first.orderSn, amountCents: 200 }, 'paid', 2);
    expect(await orderRow(first.orderSn)).toMatchObject({ status: OrderStatus.REFUNDED });
    expect(await balances(t.current, author.id)).toMatchObject({ available: 200, frozen: 0 });
    expect(await packetRow(id)).toMatchObject({ status: RedPacketStatus.PENDING, moneyCents: 400 });
    expect(await threadRow(id)).toMatchObject({ isDraft: 1 });

    // The draft deleted before its order is paid: the payment is returned, the thread stays deleted.
    expect((await t.post('/api/v3/thread.delete', { threadId: id }, author.token)).Code).toBe(0);
    await deliverSandboxCallback(t.current, { orderSn: second.orderSn, amountCents: 400 }, 'paid', 2);
    expect(await orderRow(second.orderSn)).toMatchObject({ status: OrderStatus.REFUNDED });
    expect(await balances(t.current, author.id)).toMatchObject({ available: 600, frozen: 0 });
    expect(await threadRow(id)).toMatchObject({ isDraft: 1 });
    expect((await ledgerOf(author.id)).map((r) => [r.changeType, r.changeAvailableCents])).toEqual([
      [WalletChangeType.PAYMENT_RETURNED, 200],
      [WalletChangeType.PAYMENT_RETURNED, 400],
    ]);
    await expectLedgerMatches(t.current, author.id);
  });

  it('an unpaid red packet may be removed, or paid from the wallet instead', async () => {
    const author = await t.buildMember();
    await setPayPassword(t.current, author);
    await fund(t.current, t.admin, author.id, '5.00');
    const removed = await create(author.token, packetBody(), word());
    const order = (removed.Data.content.indexes['106']!.body as RedPacketPart).order!;
    const gone = await update(
      author.token,
      removed.Data.threadId,
      { operation: 'delete' },
      { title: '红包帖', draft: false },
    );
    expect(gone.Code).toBe(0);
    expect(gone.Data).toMatchObject({ isDraft: false });
    expect(gone.Data.content.indexes['106']).toBeUndefined();
    expect(await orderRow(order.orderSn)).toMatchObject({ status: OrderStatus.CANCELLED });

    const switched = await create(author.token, packetBody(), word());
    const id = switched.Data.threadId;
    const old = (switched.Data.content.indexes['106']!.body as RedPacketPart).order!;
    const wallet = await update(
      author.token,
      id,
      { body: packetBody({ payment: 'wallet', payPassword: PAY_PASSWORD }) },
      { title: '红包帖', draft: false },
    );
    expect(wallet.Code).toBe(0);
    expect(wallet.Data.isDraft).toBe(false);
    expect(await balances(t.current, author.id)).toMatchObject({ available: 300, frozen: 200 });
    expect(await packetRow(id)).toMatchObject({ status: RedPacketStatus.VALID, orderId: null });
    expect(await orderRow(old.orderSn)).toMatchObject({ status: OrderStatus.CANCELLED });
    // Paid now: it cannot be changed or removed any more.
    expect((await update(author.token, id, { operation: 'delete' })).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('refuses a provider red packet on a published thread, its order from order.create and from the wallet', async () => {
    const author = await t.buildMember();
    await setPayPassword(t.current, author);
    await fund(t.current, t.admin, author.id, '5.00');
    const published = await t.buildThread(author);
    const added = await update(author.token, published.threadId, { body: packetBody() });
    expect(added.Code).toBe(Code.INVALID_PARAMETER);
    expect(
      await t.app.ctx.db
        .selectFrom('threadRedPackets')
        .selectAll()
        .where('threadId', '=', published.threadId)
        .execute(),
    ).toEqual([]);

    const byHand = await t.post<OrderInfo>(
      '/api/v3/order.create',
      { type: OrderType.RED_PACKET, amount: '1.00' },
      author.token,
    );
    expect(byHand.Code).toBe(Code.INVALID_PARAMETER);

    const made = await create(author.token, packetBody(), word());
    const { orderSn } = (made.Data.content.indexes['106']!.body as RedPacketPart).order!;
    const fromWallet = await t.post(
      '/api/v3/trade/pay/order',
      { orderSn, paymentType: PayType.WALLET, payPassword: PAY_PASSWORD },
      author.token,
    );
    expect(fromWallet.Code).toBe(Code.INVALID_PARAMETER);
    expect(await balances(t.current, author.id)).toMatchObject({ available: 500, frozen: 0 });
    expect(await orderRow(orderSn)).toMatchObject({ status: OrderStatus.PENDING });
  });
});
