import { OrderStatus, OrderType, PayType, RedPacketStatus, WalletChangeType, type ThreadDetail } from '@luntan/shared';
import bcrypt from 'bcryptjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { importInto, installDumpWith } from '../../../test/discuzq-fixtures.js';
import { useTestServer } from '../../../test/fixture.js';
import { renderInsert, type SqlRow } from '../fixture-sql.js';
import type { ImportReport } from '../importer.js';
import { accountSteps } from './accounts.js';
import { contentSteps } from './content.js';
import { countersStep } from './counters.js';
import { moneySteps } from './money.js';

/*
 * The money of a Discuz! Q site over a real database (SQLite, or PostgreSQL with DATABASE_URL): wallets that do not
 * add up to their old ledger get one opening entry each, orders keep their numbers, a paid thread's buyer reads it
 * whole, withdrawals, red packets and bounties still running keep working, orphans are skipped and counted.
 */

const t = useTestServer();
const PASSWORD = 'secret-123';
const STAMP = '2021-03-01 10:00:00';
const BODY = '付费内容开头。'.repeat(5) + '只有买家能读到的结尾部分。';

const rows = (table: string, list: SqlRow[]) => renderInsert(table, list);
/** An hour ago on the old site's clock (UTC+8): a red packet made then still hands out for 23 hours. */
const HOUR_AGO = new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
const HOUR_AGO_ISO = new Date(Date.parse(`${HOUR_AGO.replace(' ', 'T')}Z`) - 8 * 3600_000).toISOString();

async function site(): Promise<string> {
  // PHP writes $2y$; a low cost keeps the test quick (the cost is in the hash).
  const hash = `$2y$${(await bcrypt.hash(PASSWORD, 4)).slice(4)}`;
  const user = (id: number, username: string): SqlRow => ({
    id,
    username,
    password: hash,
    nickname: username,
    created_at: STAMP,
    updated_at: STAMP,
  });
  const thread = (id: number, title: string, price = '0.00'): SqlRow => ({
    id,
    user_id: 3,
    category_id: 1,
    title,
    price,
    free_words: price === '0.00' ? 0 : 0.2,
    is_approved: 1,
    address: '',
    location: '',
    created_at: STAMP,
    updated_at: STAMP,
  });
  const post = (id: number, threadId: number, content: string): SqlRow => ({
    id,
    user_id: 3,
    thread_id: threadId,
    content,
    is_first: 1,
    is_approved: 1,
    created_at: STAMP,
    updated_at: STAMP,
  });
  const order = (id: number, values: SqlRow): SqlRow => ({
    id,
    order_sn: `2021030110000000${String(id).padStart(6, '0')}`,
    amount: '5.00',
    user_id: 1,
    payee_id: 3,
    type: 3,
    status: 1,
    payment_type: 20,
    created_at: STAMP,
    updated_at: '2021-03-01 10:01:00',
    ...values,
  });
  const log = (id: number, userId: number, available: string, frozen: string, type: number, extra: SqlRow = {}) => ({
    id,
    user_id: userId,
    change_available_amount: available,
    change_freeze_amount: frozen,
    change_type: type,
    change_desc: `明细 ${id}`,
    created_at: `2021-03-0${Math.min(9, 2 + (id % 7))} 12:00:00`,
    updated_at: STAMP,
    ...extra,
  });
  return installDumpWith(
    [
      rows('users', [user(1, 'buyer'), user(2, 'stranger'), user(3, 'author')]),
      rows(
        'group_user',
        [1, 2, 3].map((id) => ({ group_id: 10, user_id: id })),
      ),
      rows('threads', [
        thread(1, '付费主题', '5.00'),
        thread(2, '红包主题'),
        thread(3, '悬赏主题'),
        thread(4, '另一个悬赏'),
        thread(5, '在线支付的红包'),
      ]),
      rows('posts', [
        post(1, 1, `<p>${BODY}</p>`),
        post(2, 2, '<p>回复领红包</p>'),
        post(3, 3, '<p>悬赏提问</p>'),
        post(4, 4, '<p>又一个悬赏</p>'),
        post(5, 5, '<p>拼手气红包</p>'),
      ]),
      rows('user_wallets', [
        { user_id: 1, available_amount: '120.50', freeze_amount: '30.00', created_at: STAMP, updated_at: STAMP },
        {
          user_id: 2,
          available_amount: '0.00',
          freeze_amount: '0.00',
          wallet_status: 1,
          created_at: STAMP,
          updated_at: STAMP,
        },
        { user_id: 3, available_amount: '10.00', freeze_amount: '14.00', created_at: STAMP, updated_at: STAMP },
        { user_id: 99, available_amount: '8.00', freeze_amount: '0.00', created_at: STAMP, updated_at: STAMP },
      ]),
      rows('orders', [
        order(1, { thread_id: 1, author_amount: '5.00' }),
        order(2, { type: 2, user_id: 2, amount: '1.50', thread_id: 1, author_amount: '1.50' }),
        // Never paid: long expired.
        order(3, { user_id: 2, thread_id: 1, status: 0, payment_type: 0 }),
        order(4, { type: 30, amount: '100.00', payee_id: 0, payment_type: 10 }),
        // A renewal paid through WeChat in a mini-program, refunded.
        order(5, { type: 8, user_id: 2, amount: '10.00', payee_id: 0, status: 10, payment_type: 13 }),
        // The red packet and a bounty paid from the wallet, another bounty through WeChat.
        order(6, { type: 9, user_id: 3, amount: '10.00', payee_id: 0, thread_id: 2 }),
        order(7, { type: 10, user_id: 3, amount: '20.00', payee_id: 0, thread_id: 3 }),
        order(11, { type: 10, user_id: 3, amount: '3.00', payee_id: 0, thread_id: 4, payment_type: 10 }),
        order(12, { type: 9, user_id: 3, amount: '4.00', payee_id: 0, thread_id: 5, payment_type: 11 }),
        order(8, { type: 11, user_id: 3, amount: '3.00', payee_id: 0, status: 5 }),
        // Orphans: a missing payer, and an order of nothing.
        order(9, { user_id: 99 }),
        order(10, { amount: '0.00' }),
      ]),
      rows('user_wallet_cash', [
        {
          id: 1,
          user_id: 1,
          cash_sn: '202103011000001',
          cash_apply_amount: '30.00',
          cash_charge: '0.30',
          cash_actual_amount: '29.70',
          cash_status: 1,
          receive_account: 'buyer@wechat',
          created_at: STAMP,
          updated_at: STAMP,
        },
        {
          id: 2,
          user_id: 1,
          cash_sn: '202103011000002',
          cash_apply_amount: '10.00',
          cash_charge: '0.00',
          cash_actual_amount: '10.00',
          cash_status: 4,
          cash_mobile: '13800000000',
          created_at: STAMP,
          updated_at: '2021-03-02 09:00:00',
        },
        {
          id: 3,
          user_id: 1,
          cash_sn: '202103011000003',
          cash_apply_amount: '5.00',
          cash_charge: '0.05',
          cash_actual_amount: '4.95',
          cash_status: 6,
          error_message: '余额不足',
          created_at: STAMP,
          updated_at: STAMP,
        },
        {
          id: 4,
          user_id: 99,
          cash_sn: '202103011000004',
          cash_apply_amount: '5.00',
          cash_charge: '0.00',
          cash_actual_amount: '5.00',
          created_at: STAMP,
          updated_at: STAMP,
        },
      ]),
      rows('thread_red_packets', [
        {
          id: 7,
          thread_id: 2,
          post_id: 2,
          rule: 0,
          condition: 0,
          money: '10.00',
          number: 5,
          remain_money: '6.00',
          remain_number: 3,
          status: 1,
          created_at: HOUR_AGO,
          updated_at: HOUR_AGO,
        },
        // Paid through WeChat: the family kept its money outside the wallet.
        {
          id: 8,
          thread_id: 5,
          post_id: 5,
          rule: 1,
          condition: 0,
          money: '4.00',
          number: 4,
          remain_money: '4.00',
          remain_number: 4,
          status: 1,
          created_at: HOUR_AGO,
          updated_at: HOUR_AGO,
        },
      ]),
      rows('thread_rewards', [
        {
          id: 4,
          thread_id: 3,
          post_id: 3,
          user_id: 3,
          money: '20.00',
          remain_money: '20.00',
          expired_at: '2099-01-01 00:00:00',
          created_at: STAMP,
          updated_at: STAMP,
        },
        {
          id: 5,
          thread_id: 4,
          post_id: 4,
          user_id: 3,
          money: '3.00',
          remain_money: '3.00',
          expired_at: '2099-01-01 00:00:00',
          created_at: STAMP,
          updated_at: STAMP,
        },
      ]),
      rows('user_wallet_logs', [
        log(1, 1, '100.00', '0.00', 180, { order_id: 4 }),
        log(2, 1, '-5.00', '0.00', 61, { order_id: 1 }),
        log(3, 3, '5.00', '0.00', 60, { order_id: 1 }),
        log(4, 2, '-1.50', '0.00', 41, { order_id: 2 }),
        log(5, 3, '1.50', '0.00', 31, { order_id: 2 }),
        log(6, 1, '-30.00', '30.00', 10, { user_wallet_cash_id: 1 }),
        log(7, 3, '-10.00', '10.00', 150, { order_id: 6, thread_id: 2 }),
        log(8, 3, '0.00', '-2.00', 153, { thread_id: 2 }),
        log(9, 1, '2.00', '0.00', 151, { thread_id: 2, post_id: 2 }),
        // A registration share (30 here is "added by an administrator"), a kept family number, a missing order.
        log(10, 3, '0.50', '0.00', 34, { order_id: 77 }),
        log(11, 1, '1.00', '0.00', 36),
        log(12, 99, '8.00', '0.00', 32),
      ]),
    ].join('\n'),
  );
}

let report: ImportReport;
const db = () => t.app.ctx.db;
const tableOf = (name: string) => report.tables.find((r) => r.table === name)!;

beforeAll(async () => {
  const file = await site();
  report = await importInto(t, file, { steps: [...accountSteps, ...contentSteps, ...moneySteps, countersStep] });
}, 20_000);

describe('Discuz! Q money import', () => {
  it('brings the wallets over in cents, orphans skipped and counted, pay password and status kept', async () => {
    const wallets = await db().selectFrom('wallets').selectAll().orderBy('userId').execute();
    expect(wallets.map((w) => [w.userId, Number(w.availableCents), Number(w.frozenCents), w.status])).toEqual([
      [1, 12050, 3000, 0],
      [2, 0, 0, 1],
      // 14.00 and what is left of the red packet paid through a provider (below).
      [3, 1000, 1800, 0],
    ]);
    expect(tableOf('user_wallets').skipped).toEqual({ 'user missing': 1 });
    expect(tableOf('user_wallet_logs').skipped).toEqual({ 'user missing': 1 });
    expect(tableOf('orders').skipped).toEqual({ 'user missing': 1, 'no amount': 1 });
    expect(tableOf('user_wallet_cash').skipped).toEqual({ 'user missing': 1 });
  });

  it('adds one opening entry per wallet that does not add up, so every wallet sums to its ledger', async () => {
    const logs = await db().selectFrom('walletLogs').selectAll().orderBy('userId').orderBy('id').execute();
    const opening = logs.filter((l) => l.changeType === WalletChangeType.OPENING_BALANCE);
    // buyer: 120.50 − (100 − 5 − 30 + 2 + 1) = 52.50 available, 30 − 30 = 0 frozen.
    // stranger: 0 − (−1.50) = 1.50; author: 10 − (5 + 1.5 − 10 + 0.5) = 13.00 available, 14 − (10 − 2) = 6.00 frozen.
    expect(opening.map((l) => [l.userId, Number(l.changeAvailableCents), Number(l.changeFrozenCents)])).toEqual([
      [1, 5250, 0],
      [2, 150, 0],
      [3, 1300, 600],
    ]);
    const wallets = await db().selectFrom('wallets').selectAll().execute();
    for (const w of wallets) {
      const own = logs.filter((l) => l.userId === w.userId);
      const sum = (k: 'changeAvailableCents' | 'changeFrozenCents') => own.reduce((s, l) => s + Number(l[k]), 0);
      expect([sum('changeAvailableCents'), sum('changeFrozenCents')]).toEqual([
        Number(w.availableCents),
        Number(w.frozenCents),
      ]);
      // The balances after run from the opening entry (dated first) through the rest in id order.
      const first = own.find((l) => l.changeType === WalletChangeType.OPENING_BALANCE);
      const ordered = first ? [first, ...own.filter((l) => l !== first)] : own;
      expect(first === undefined || own.every((l) => l === first || l.createdAt > first.createdAt)).toBe(true);
      let a = 0;
      let f = 0;
      for (const l of ordered) {
        a += Number(l.changeAvailableCents);
        f += Number(l.changeFrozenCents);
        expect([Number(l.availableAfterCents), Number(l.frozenAfterCents)]).toEqual([a, f]);
      }
    }
    expect(report.notes).toContain('Opening balance for user 1: available +52.50, frozen +0.00.');
    expect(report.notes.some((n) => n.startsWith('Opening balances: 3 wallet(s)') && n.includes('+67.00'))).toBe(true);
  });

  it('maps the ledger types, and keeps an order or a withdrawal a row names only when it came over', async () => {
    const byId = new Map(
      (await db().selectFrom('walletLogs').selectAll().where('id', '<=', 12).execute()).map((l) => [l.id, l]),
    );
    expect(byId.get(1)).toMatchObject({ changeType: WalletChangeType.RECHARGE, orderId: 4 });
    expect(byId.get(2)).toMatchObject({ changeType: WalletChangeType.THREAD_EXPENSE, orderId: 1 });
    expect(byId.get(3)).toMatchObject({ changeType: WalletChangeType.THREAD_INCOME });
    expect(byId.get(5)).toMatchObject({ changeType: WalletChangeType.REWARD_INCOME });
    expect(byId.get(6)).toMatchObject({ changeType: WalletChangeType.CASH_FREEZE, cashId: 1 });
    expect(byId.get(10)).toMatchObject({ changeType: WalletChangeType.REGISTER_SHARE_INCOME, orderId: null });
    expect(byId.get(11)).toMatchObject({ changeType: 36, changeDesc: '明细 11' });
    expect([...byId.values()].some((l) => l.changeDesc === '明细 12')).toBe(false);
  });

  it('keeps orders with their numbers, types, statuses and payment types mapped', async () => {
    const orders = await db().selectFrom('orders').selectAll().orderBy('id').execute();
    expect(orders.map((o) => [o.id, o.type, o.status, o.paymentType, Number(o.amountCents)])).toEqual([
      [1, OrderType.THREAD, OrderStatus.PAID, PayType.WALLET, 500],
      [2, OrderType.REWARD, OrderStatus.PAID, PayType.WALLET, 150],
      [3, OrderType.THREAD, OrderStatus.EXPIRED, null, 500],
      [4, OrderType.RECHARGE, OrderStatus.PAID, PayType.WXPAY_NATIVE, 10000],
      [5, OrderType.REGISTER, OrderStatus.REFUNDED, PayType.WXPAY_H5, 1000],
      [6, OrderType.RED_PACKET, OrderStatus.PAID, PayType.WALLET, 1000],
      [7, 10, OrderStatus.PAID, PayType.WALLET, 2000],
      [8, 11, 5, PayType.WALLET, 300],
      [11, 10, OrderStatus.PAID, PayType.WXPAY_NATIVE, 300],
      [12, OrderType.RED_PACKET, OrderStatus.PAID, PayType.WXPAY_H5, 400],
    ]);
    expect(orders[0]).toMatchObject({
      orderSn: '2021030110000000000001',
      userId: 1,
      payeeId: 3,
      threadId: 1,
      authorAmountCents: 500,
      paidAt: '2021-03-01T02:01:00.000Z',
      createdAt: '2021-03-01T02:00:00.000Z',
      expiresAt: '2021-03-01T02:00:00.000Z',
    });
    expect(orders[3]).toMatchObject({ payeeId: null, paidAt: '2021-03-01T02:01:00.000Z' });
    expect(orders[2]).toMatchObject({ paidAt: null, expiresAt: '2021-03-01T02:10:00.000Z' });
    const purchases = await db().selectFrom('purchases').selectAll().execute();
    expect(purchases).toEqual([expect.objectContaining({ userId: 1, type: OrderType.THREAD, thingId: 1, orderId: 1 })]);
  });

  it('lets the buyer read the paid thread whole after the import, and not anyone else', async () => {
    const buyer = await t.login('buyer', PASSWORD);
    const stranger = await t.login('stranger', PASSWORD);
    const mine = await t.get<ThreadDetail>('/api/v3/thread.detail?threadId=1', buyer);
    expect(mine.Code).toBe(0);
    expect(mine.Data).toMatchObject({ paid: true, canViewFull: true, price: '5.00' });
    expect(JSON.stringify(mine.Data.content)).toContain('只有买家能读到的结尾部分');
    const theirs = await t.get<ThreadDetail>('/api/v3/thread.detail?threadId=1', stranger);
    expect(theirs.Code).toBe(0);
    expect(theirs.Data).toMatchObject({ paid: false, canViewFull: false });
    expect(JSON.stringify(theirs.Data.content)).not.toContain('只有买家能读到的结尾部分');
  });

  it('brings withdrawals over: the fee on top of the amount paid out, statuses mapped, the reason kept', async () => {
    const cash = await db().selectFrom('walletCash').selectAll().orderBy('id').execute();
    expect(cash.map((c) => [c.id, c.cashSn, Number(c.applyCents), Number(c.chargeCents), c.status])).toEqual([
      [1, '202103011000001', 2970, 30, 1],
      [2, '202103011000002', 1000, 0, 2],
      [3, '202103011000003', 495, 5, 6],
    ]);
    expect(cash[0]).toMatchObject({ receiveAccount: 'buyer@wechat', reviewedAt: null });
    expect(cash[1]).toMatchObject({ receiveAccount: '13800000000', reviewedAt: '2021-03-02T01:00:00.000Z' });
    expect(cash[2]).toMatchObject({ remark: '余额不足' });
  });

  it('keeps a running red packet handing out, with its receiver and its timer', async () => {
    const packet = await db().selectFrom('threadRedPackets').selectAll().where('id', '=', 7).executeTakeFirstOrThrow();
    expect(packet).toMatchObject({
      id: 7,
      threadId: 2,
      userId: 3,
      status: RedPacketStatus.VALID,
      remainNumber: 3,
      orderId: null,
      expiresAt: new Date(Date.parse(HOUR_AGO_ISO) + 24 * 3600_000).toISOString(),
    });
    expect(Number(packet.remainCents)).toBe(600);
    const shares = await db()
      .selectFrom('threadRedPacketShares')
      .selectAll()
      .where('redPacketId', '=', 7)
      .orderBy('seq')
      .execute();
    expect(shares.map((s) => [s.userId, Number(s.amountCents)])).toEqual([
      [1, 200],
      [null, 200],
      [null, 200],
      [null, 200],
    ]);
    const bounties = await db().selectFrom('threadBounties').selectAll().orderBy('id').execute();
    expect(bounties.map((b) => [b.id, b.threadId, b.userId, Number(b.remainingCents), b.settledAt === null])).toEqual([
      [4, 3, 3, 2000, true],
      // Paid through a provider: its money was never in the author's wallet, so it comes over settled and is named.
      [5, 4, 3, 0, false],
    ]);
    expect(report.notes.some((n) => n.includes('bounty of thread 4') && n.includes('3.00'))).toBe(true);
    const timers = await db()
      .selectFrom('domainEvents as e')
      .innerJoin('eventDeliveries as d', 'd.eventId', 'e.id')
      .select(['e.name', 'e.payload', 'e.dueAt', 'd.subscriber'])
      .where('e.name', 'in', ['red_packet.expiry_due', 'bounty.expiry_due'])
      .execute();
    const mine = timers.filter((e) => !e.payload.includes('"redPacketId":8'));
    expect(timers).toHaveLength(3);
    expect(mine.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      {
        name: 'bounty.expiry_due',
        payload: JSON.stringify({ threadId: 3, userId: 3 }),
        dueAt: '2098-12-31T16:00:00.000Z',
        subscriber: 'bounty',
      },
      {
        name: 'red_packet.expiry_due',
        payload: JSON.stringify({ redPacketId: 7, threadId: 2, userId: 3 }),
        dueAt: new Date(Date.parse(HOUR_AGO_ISO) + 24 * 3600_000).toISOString(),
        subscriber: 'red-packets',
      },
    ]);
  });

  it("puts what is left of a red packet paid through a provider into its author's frozen money, once", async () => {
    const packet = await db().selectFrom('threadRedPackets').selectAll().where('id', '=', 8).executeTakeFirstOrThrow();
    expect(packet).toMatchObject({ status: RedPacketStatus.VALID, orderId: 12, remainNumber: 4 });
    const shares = await db().selectFrom('threadRedPacketShares').selectAll().where('redPacketId', '=', 8).execute();
    expect(shares).toHaveLength(4);
    expect(shares.every((s) => s.userId === null && Number(s.amountCents) >= 1)).toBe(true);
    expect(shares.reduce((sum, s) => sum + Number(s.amountCents), 0)).toBe(400);
    const funded = await db()
      .selectFrom('walletLogs')
      .selectAll()
      .where('changeType', '=', WalletChangeType.RED_PACKET_PAID)
      .execute();
    expect(
      funded.map((l) => [l.userId, l.orderId, Number(l.changeAvailableCents), Number(l.changeFrozenCents)]),
    ).toEqual([[3, 12, 0, 400]]);
  });

  it('refuses a second import of the same batch into the forum', async () => {
    await expect(
      importInto(t, await site(), { steps: [...accountSteps, ...contentSteps, ...moneySteps, countersStep] }),
    ).rejects.toThrow(/already holds a finished import/);
  });
});
