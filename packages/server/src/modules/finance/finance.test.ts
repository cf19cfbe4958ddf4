import { CashStatus, Code, OrderStatus, OrderType, type FinanceChartPoint, type FinanceStats } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import {
  applyCash,
  balances,
  expectLedgerMatches,
  fund,
  reviewCash,
  setSettings,
  insertOrder,
} from '../../test/money-fixtures.js';
import { chartRange, mondayOf, pointKeys, utcDayOf } from './finance-chart.js';

let cashSerial = 0;

const RULES = { cashMinSum: '1.00', cashMaxSum: '5000.00', cashSumLimit: 10, cashRate: '0.60', cashPayoutProvider: '' };

describe('finance statistics', () => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer({ env: { PAYMENT_SANDBOX: '1' } });
    admin = await t.login(ADMIN.username, ADMIN.password);
    await setSettings(t, admin, RULES);
  });
  afterAll(async () => {
    await t.close();
  });

  const stats = async () => (await t.get<FinanceStats>('/api/statistic/finance.v2', admin)).Data;
  const chart = async (q: string) => t.get<FinanceChartPoint[]>(`/api/statistic/financeChart.v2?${q}`, admin);

  it('is zero on a new site', async () => {
    expect(await stats()).toEqual({
      totalIncome: '0.00',
      totalWithdrawal: '0.00',
      totalWallet: '0.00',
      totalProfit: '0.00',
      withdrawalProfit: '0.00',
      orderRoyalty: '0.00',
      totalRegisterProfit: '0.00',
      orderCount: 0,
    });
  });

  it('adds up paid orders, paid-out withdrawals and wallets exactly', async () => {
    const ann = await buildUser(t);
    const bob = await buildUser(t);
    await fund(t, admin, ann.id, '500.00');
    await fund(t, admin, bob.id, '300.00');
    // Ann: 100.00 paid out by hand (fee 0.60), 50.00 rejected (fee 0.30 returned).
    const a1 = (await applyCash(t, ann, '100.00')).Data;
    await reviewCash(t, admin, [a1.id], CashStatus.APPROVED);
    await reviewCash(t, admin, [a1.id], CashStatus.PAID);
    const a2 = (await applyCash(t, ann, '50.00')).Data;
    await reviewCash(t, admin, [a2.id], CashStatus.REJECTED);
    // Bob: 20.00 waiting (fee 0.12, still in his wallet as frozen), 10.00 paid through the sandbox (fee 0.06).
    await applyCash(t, bob, '20.00');
    await setSettings(t, admin, { cashPayoutProvider: 'sandbox' });
    const b2 = (await applyCash(t, bob, '10.00')).Data;
    expect((await reviewCash(t, admin, [b2.id], CashStatus.APPROVED)).Data.succeeded).toEqual([b2.id]);
    await setSettings(t, admin, { cashPayoutProvider: '' });
    // Orders: paid ones count in income; the site's share is royalty; paid joining fees are register profit.
    await insertOrder(t, { userId: ann.id, type: OrderType.REGISTER, status: OrderStatus.PAID, amount: 10_00 });
    await insertOrder(t, {
      userId: ann.id,
      type: OrderType.THREAD,
      status: OrderStatus.PAID,
      amount: 30_00,
      master: 3_00,
    });
    await insertOrder(t, { userId: bob.id, type: OrderType.REWARD, status: OrderStatus.PAID, amount: 5_00 });
    await insertOrder(t, {
      userId: bob.id,
      type: OrderType.THREAD,
      status: OrderStatus.PENDING,
      amount: 8_00,
      master: 80,
    });
    await insertOrder(t, { userId: bob.id, type: OrderType.REGISTER, status: OrderStatus.CANCELLED, amount: 10_00 });
    await insertOrder(t, { userId: bob.id, type: OrderType.RECHARGE, status: OrderStatus.PAID, amount: 50_00 });
    await insertOrder(t, {
      userId: bob.id,
      type: OrderType.THREAD,
      status: OrderStatus.REFUNDED,
      amount: 9_00,
      master: 90,
    });

    expect(await balances(t, ann.id)).toEqual({ available: 399_40, frozen: 0, status: 0 });
    expect(await balances(t, bob.id)).toEqual({ available: 300_00 - 20_12 - 10_06, frozen: 20_12, status: 0 });
    expect(await stats()).toEqual({
      totalIncome: '95.00',
      totalWithdrawal: '110.00',
      totalWallet: '689.34',
      totalProfit: '13.66',
      withdrawalProfit: '0.66',
      orderRoyalty: '3.00',
      totalRegisterProfit: '10.00',
      // Paid orders only: the pending, cancelled and refunded ones are not sales.
      orderCount: 4,
    });
    // Today's point of the chart holds the same flows.
    const points = (await chart('')).Data;
    expect(points.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      totalIncome: '95.00',
      totalWithdrawal: '110.00',
      withdrawalProfit: '0.66',
      orderRoyalty: '3.00',
      totalRegisterProfit: '10.00',
      totalProfit: '13.66',
      orderCount: 4,
    });
    await expectLedgerMatches(t, ann.id);
    await expectLedgerMatches(t, bob.id);
  });

  it('charts days (zeros included), weeks from Monday and months', async () => {
    const u = await buildUser(t);
    await insertOrder(t, {
      userId: u.id,
      type: OrderType.THREAD,
      status: OrderStatus.PAID,
      amount: 20_00,
      master: 2_00,
      createdAt: '2025-03-02T10:00:00.000Z',
      paidAt: '2025-03-03T01:00:00.000Z',
    });
    await insertOrder(t, {
      userId: u.id,
      type: OrderType.REGISTER,
      status: OrderStatus.PAID,
      amount: 10_00,
      createdAt: '2025-03-05T23:59:59.999Z',
    });
    await insertOrder(t, {
      userId: u.id,
      type: OrderType.THREAD,
      status: OrderStatus.PENDING,
      amount: 5_00,
      createdAt: '2025-03-09T12:00:00.000Z',
    });
    await insertOrder(t, {
      userId: u.id,
      type: OrderType.REWARD,
      status: OrderStatus.PAID,
      amount: 7_00,
      master: 70,
      createdAt: '2025-04-01T00:00:00.000Z',
    });
    const cash = (status: number, apply: number, charge: number, reviewedAt: string) => ({
      cashSn: `C${Date.now()}${(cashSerial += 1)}`,
      userId: u.id,
      applyCents: apply,
      chargeCents: charge,
      receiveAccount: 'x',
      status,
      reviewedAt,
      createdAt: '2025-03-01T00:00:00.000Z',
      updatedAt: reviewedAt,
    });
    await t.app.ctx.db
      .insertInto('walletCash')
      .values([
        cash(CashStatus.PAID, 40_00, 24, '2025-03-04T08:00:00.000Z'),
        cash(CashStatus.REJECTED, 99_00, 59, '2025-03-04T09:00:00.000Z'),
      ])
      .execute();

    const zero = { totalIncome: '0.00', totalWithdrawal: '0.00', withdrawalProfit: '0.00', orderRoyalty: '0.00' };
    const empty = (date: string) => ({
      date,
      ...zero,
      totalRegisterProfit: '0.00',
      totalProfit: '0.00',
      orderCount: 0,
    });

    const days = await chart('createdAtBegin=2025-03-01&createdAtEnd=2025-03-10');
    expect(days.Code).toBe(0);
    expect(days.Data.map((p) => p.date)).toEqual([
      '2025-03-01',
      '2025-03-02',
      '2025-03-03',
      '2025-03-04',
      '2025-03-05',
      '2025-03-06',
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
      '2025-03-10',
    ]);
    expect(days.Data[0]).toEqual(empty('2025-03-01'));
    // Orders count on the day they were paid (made on the 2nd, paid on the 3rd); an unpaid one never.
    expect(days.Data[1]).toEqual(empty('2025-03-02'));
    expect(days.Data[2]).toEqual({
      ...empty('2025-03-03'),
      totalIncome: '20.00',
      orderRoyalty: '2.00',
      totalProfit: '2.00',
      orderCount: 1,
    });
    expect(days.Data[3]).toEqual({
      ...empty('2025-03-04'),
      totalWithdrawal: '40.00',
      withdrawalProfit: '0.24',
      totalProfit: '0.24',
    });
    expect(days.Data[4]).toEqual({
      ...empty('2025-03-05'),
      totalIncome: '10.00',
      totalRegisterProfit: '10.00',
      totalProfit: '10.00',
      orderCount: 1,
    });
    expect(days.Data[8]).toEqual(empty('2025-03-09'));
    expect(days.Data[9]).toEqual(empty('2025-03-10'));

    // ISO times are taken as their UTC day.
    const iso = await chart('createdAtBegin=2025-03-03T15:00:00Z&createdAtEnd=2025-03-03T23:00:00.000Z');
    expect(iso.Data).toEqual([days.Data[2]]);

    const weeks = await chart('createdAtBegin=2025-03-01&createdAtEnd=2025-03-31&type=2');
    expect(weeks.Data.map((p) => p.date)).toEqual([
      '2025-02-24',
      '2025-03-03',
      '2025-03-10',
      '2025-03-17',
      '2025-03-24',
      '2025-03-31',
    ]);
    expect(weeks.Data[0]).toEqual(empty('2025-02-24'));
    expect(weeks.Data[1]).toEqual({
      date: '2025-03-03',
      totalIncome: '30.00',
      totalWithdrawal: '40.00',
      withdrawalProfit: '0.24',
      orderRoyalty: '2.00',
      totalRegisterProfit: '10.00',
      totalProfit: '12.24',
      orderCount: 2,
    });
    expect(weeks.Data.slice(2)).toEqual(['2025-03-10', '2025-03-17', '2025-03-24', '2025-03-31'].map(empty));

    const months = await chart('createdAtBegin=2025-02-15&createdAtEnd=2025-04-30&type=3');
    expect(months.Data).toEqual([
      empty('2025-02'),
      {
        date: '2025-03',
        totalIncome: '30.00',
        totalWithdrawal: '40.00',
        withdrawalProfit: '0.24',
        orderRoyalty: '2.00',
        totalRegisterProfit: '10.00',
        totalProfit: '12.24',
        orderCount: 2,
      },
      { ...empty('2025-04'), totalIncome: '7.00', orderRoyalty: '0.70', totalProfit: '0.70', orderCount: 1 },
    ]);
  });

  it('defaults to the last 60 days and refuses bad ranges (-4001)', async () => {
    const points = (await chart('')).Data;
    const today = new Date().toISOString().slice(0, 10);
    expect(points).toHaveLength(60);
    expect(points.at(-1)!.date).toBe(today);
    expect(points[0]!.date).toBe(
      new Date(Date.parse(`${today}T00:00:00Z`) - 59 * 86_400_000).toISOString().slice(0, 10),
    );
    // Only an end: the 60 days up to it.
    const before = (await chart('createdAtEnd=2025-03-10')).Data;
    expect([before.length, before[0]!.date, before.at(-1)!.date]).toEqual([60, '2025-01-10', '2025-03-10']);
    // Three years exactly is allowed.
    expect((await chart('createdAtBegin=2022-01-02&createdAtEnd=2025-01-02&type=3')).Data).toHaveLength(37);
    const bad: [string, string][] = [
      ['createdAtBegin=2025-03-10&createdAtEnd=2025-03-09', 'createdAtEnd'],
      ['createdAtBegin=2022-01-01&createdAtEnd=2025-01-02', 'createdAtBegin'],
      ['createdAtBegin=2025-02-30', 'createdAtBegin'],
      ['createdAtBegin=yesterday', 'createdAtBegin'],
      ['createdAtEnd=2025-03-10T99:00:00Z', 'createdAtEnd'],
      ['type=4', 'type'],
    ];
    for (const [q, field] of bad) {
      const res = await chart(q);
      expect([res.Code, (res.Data as unknown as { field?: string }).field], q).toEqual([Code.INVALID_PARAMETER, field]);
    }
  });

  it('is for administrators only', async () => {
    const member = await buildUser(t);
    for (const path of ['/api/statistic/finance.v2', '/api/statistic/financeChart.v2']) {
      expect((await t.get(path, member.token)).Code).toBe(Code.UNAUTHORIZED);
      expect((await t.get(path)).Code).toBe(Code.JUMP_TO_LOGIN);
    }
  });
});

describe('the chart’s calendar', () => {
  it('reads dates and ISO times as UTC days', () => {
    expect(utcDayOf('2026-11-01')).toBe('2026-11-01');
    expect(utcDayOf('2026-11-01T23:30:00+08:00')).toBe('2026-11-01');
    expect(utcDayOf('2026-11-01T20:30:00-08:00')).toBe('2026-11-02');
    for (const bad of ['2026-11-31', '2026-1-1', 'now', '', '20261101']) expect(utcDayOf(bad)).toBeNull();
  });

  it('finds Mondays and the points of a range', () => {
    expect(mondayOf('2026-11-22')).toBe('2026-11-16'); // a Sunday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(pointKeys({ begin: '2024-12-30', end: '2025-01-06' }, 2)).toEqual(['2024-12-30', '2025-01-06']);
    expect(pointKeys({ begin: '2024-02-28', end: '2024-03-01' }, 1)).toEqual([
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(pointKeys({ begin: '2024-12-31', end: '2025-01-01' }, 3)).toEqual(['2024-12', '2025-01']);
    expect(chartRange({}, '2026-03-01')).toEqual({ begin: '2026-01-01', end: '2026-03-01' });
  });
});
