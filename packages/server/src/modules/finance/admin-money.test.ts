import {
  CashStatus,
  Code,
  OrderStatus,
  OrderType,
  WalletChangeType,
  type AdminCashItem,
  type AdminOrderItem,
  type AdminWalletLogItem,
  type Page,
} from '@luntan/shared';
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
  adminId,
} from '../../test/money-fixtures.js';

const RULES = { cashMinSum: '1.00', cashMaxSum: '5000.00', cashSumLimit: 10, cashRate: '0.60', cashPayoutProvider: '' };

describe('administrators’ money calls', () => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.login(ADMIN.username, ADMIN.password);
    await setSettings(t, admin, RULES);
  });
  afterAll(async () => {
    await t.close();
  });

  const update = (body: unknown, token = admin) =>
    t.post<Record<string, unknown>>('/api/backAdmin/users/wallet.update', body, token);

  it('wallet.update adds and subtracts through the ledger, with the administrator and the reason', async () => {
    const alice = await buildUser(t);
    const added = await update({ userId: alice.id, operateType: 1, operateAmount: '12.50', operateReason: '活动奖励' });
    expect(added.Code).toBe(0);
    expect(added.Data).toEqual({ userId: alice.id, availableAmount: '12.50', freezeAmount: '0.00', walletStatus: 0 });
    const subtracted = await update({ userId: alice.id, operateType: 2, operateAmount: 2.5, operateReason: '' });
    expect(subtracted.Data).toMatchObject({ availableAmount: '10.00' });
    const logs = await t.app.ctx.db
      .selectFrom('walletLogs')
      .selectAll()
      .where('userId', '=', alice.id)
      .orderBy('id')
      .execute();
    const me = await adminId(t);
    expect(logs.map((l) => [l.changeType, Number(l.changeAvailableCents), l.operatorId, l.changeDesc])).toEqual([
      [WalletChangeType.ADMIN_ADD, 12_50, me, '活动奖励'],
      [WalletChangeType.ADMIN_SUBTRACT, -2_50, me, '管理员扣除余额'],
    ]);
    await expectLedgerMatches(t, alice.id);
  });

  it('wallet.update refuses to subtract more than is available, and then changes nothing at all', async () => {
    const alice = await buildUser(t);
    await fund(t, admin, alice.id, '5.00');
    const res = await update({ userId: alice.id, operateType: 2, operateAmount: '5.01', walletStatus: 1 });
    expect(res.Code).toBe(Code.PAYMENT_FAILED);
    expect(res.Data).toMatchObject({ reason: 'balance' });
    expect(await balances(t, alice.id)).toEqual({ available: 5_00, frozen: 0, status: 0 });
    // Frozen money is not available either.
    await applyCash(t, alice, '2.00');
    expect((await update({ userId: alice.id, operateType: 2, operateAmount: '3.00' })).Code).toBe(Code.PAYMENT_FAILED);
    expect((await update({ userId: alice.id, operateType: 2, operateAmount: '2.98' })).Code).toBe(0);
    expect(await balances(t, alice.id)).toEqual({ available: 0, frozen: 2_02, status: 0 });
    await expectLedgerMatches(t, alice.id);
  });

  it('wallet.update freezes and unfreezes (a wallet is made for it); a frozen wallet still receives', async () => {
    const alice = await buildUser(t);
    const frozen = await update({ userId: alice.id, walletStatus: 1 });
    expect(frozen.Data).toEqual({ userId: alice.id, availableAmount: '0.00', freezeAmount: '0.00', walletStatus: 1 });
    expect((await update({ userId: alice.id, operateType: 1, operateAmount: '3.00' })).Data).toMatchObject({
      availableAmount: '3.00',
      walletStatus: 1,
    });
    // Subtracting works on a frozen wallet too (an administrator's correction).
    expect((await update({ userId: alice.id, operateType: 2, operateAmount: '1.00' })).Code).toBe(0);
    expect((await applyCash(t, alice, '1.00')).Data).toMatchObject({ reason: 'frozen' });
    expect((await update({ userId: alice.id, walletStatus: 0 })).Data).toMatchObject({ walletStatus: 0 });
    expect((await applyCash(t, alice, '1.00')).Code).toBe(0);
    await expectLedgerMatches(t, alice.id);
  });

  it('wallet.update needs an amount with its direction, or a status; a real user; an administrator', async () => {
    const alice = await buildUser(t);
    const cases: [unknown, string][] = [
      [{ userId: alice.id }, 'operateType'],
      [{ userId: alice.id, operateReason: 'why' }, 'operateType'],
      [{ userId: alice.id, operateType: 1 }, 'operateAmount'],
      [{ userId: alice.id, operateAmount: '1.00' }, 'operateType'],
      [{ userId: alice.id, operateType: 3, operateAmount: '1.00' }, 'operateType'],
      [{ userId: alice.id, operateType: 1, operateAmount: '0.00' }, 'operateAmount'],
      [{ userId: alice.id, operateType: 1, operateAmount: '1.234' }, 'operateAmount'],
      [{ userId: alice.id, walletStatus: 2 }, 'walletStatus'],
      [{ operateType: 1, operateAmount: '1.00' }, 'userId'],
    ];
    for (const [body, field] of cases) {
      const res = await update(body);
      expect([res.Code, res.Data.field], JSON.stringify(body)).toEqual([Code.INVALID_PARAMETER, field]);
    }
    const missing = await update({ userId: 99_999_999, operateType: 1, operateAmount: '1.00' });
    expect([missing.Code, missing.Data.field]).toEqual([Code.RESOURCE_NOT_FOUND, 'userId']);
    expect((await update({ userId: alice.id, operateType: 1, operateAmount: '1.00' }, alice.token)).Code).toBe(
      Code.UNAUTHORIZED,
    );
    expect((await t.post('/api/backAdmin/users/wallet.update', { userId: alice.id, walletStatus: 1 })).Code).toBe(
      Code.JUMP_TO_LOGIN,
    );
    expect(await balances(t, alice.id)).toEqual({ available: 0, frozen: 0, status: 0 });
  });

  it('lists every user’s ledger, orders and withdrawals with filters, newest first', async () => {
    const tag = `f${Date.now().toString(36).slice(-5)}`;
    const ann = await buildUser(t, { username: `${tag}ann`, nickname: 'Ann' });
    const anna = await buildUser(t, { username: `${tag}anna` });
    const bob = await buildUser(t, { username: `${tag}bob` });
    for (const u of [ann, anna, bob]) await fund(t, admin, u.id, '100.00');
    const cashAnn = (await applyCash(t, ann, '10.00')).Data;
    const cashBob = (await applyCash(t, bob, '20.00')).Data;
    await reviewCash(t, admin, [cashBob.id], CashStatus.REJECTED, 'no');
    const orderAnn = await insertOrder(t, {
      userId: ann.id,
      type: OrderType.THREAD,
      status: OrderStatus.PAID,
      amount: 3_00,
    });
    await insertOrder(t, { userId: ann.id, type: OrderType.RECHARGE, status: OrderStatus.PENDING, amount: 50_00 });
    await insertOrder(t, { userId: bob.id, type: OrderType.THREAD, status: OrderStatus.PAID, amount: 4_00 });

    const get = async <T>(path: string, token = admin) => t.get<Page<T>>(path, token);
    const logs = (q: string) => get<AdminWalletLogItem>(`/api/backAdmin/users.wallet.logs?perPage=50&${q}`);

    // The ledger: by user, newest first, with who it is and the withdrawal it belongs to.
    const annLogs = (await logs(`filter[userId]=${ann.id}`)).Data;
    expect(annLogs.totalCount).toBe(2);
    expect(annLogs.pageData[0]).toMatchObject({
      userId: ann.id,
      username: ann.username,
      nickname: 'Ann',
      changeType: WalletChangeType.CASH_FREEZE,
      changeAvailableAmount: '-10.06',
      changeFreezeAmount: '10.06',
      availableAmount: '89.94',
      freezeAmount: '10.06',
      cashSn: cashAnn.cashSn,
      orderSn: null,
      operatorId: null,
    });
    expect(annLogs.pageData[1]).toMatchObject({
      changeType: WalletChangeType.ADMIN_ADD,
      changeAvailableAmount: '100.00',
    });
    expect(annLogs.pageData[1]!.operatorId).toBe(await adminId(t));
    // By username: the beginning of it (ann finds ann and anna), the whole name, any case.
    expect((await logs(`filter[username]=${tag}ann`)).Data.totalCount).toBe(3);
    expect((await logs(`filter[username]=${tag.toUpperCase()}ANNA`)).Data.totalCount).toBe(1);
    expect((await logs(`filter[username]=${tag}`)).Data.totalCount).toBe(6);
    expect((await logs(`filter[username]=${tag}%25`)).Data.totalCount).toBe(0);
    // By type, and by time.
    expect(
      (await logs(`filter[username]=${tag}&filter[type]=${WalletChangeType.CASH_THAW}`)).Data.pageData,
    ).toMatchObject([{ userId: bob.id, changeAvailableAmount: '20.12' }]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(
      (await logs(`filter[username]=${tag}&filter[startTime]=${today}&filter[endTime]=${today}`)).Data.totalCount,
    ).toBe(6);
    expect((await logs(`filter[username]=${tag}&filter[startTime]=${tomorrow}`)).Data.totalCount).toBe(0);
    expect((await logs(`filter[username]=${tag}&filter[endTime]=${yesterday}`)).Data.totalCount).toBe(0);
    const soon = new Date(Date.now() + 60_000).toISOString();
    expect((await logs(`filter[username]=${tag}&filter[endTime]=${soon}`)).Data.totalCount).toBe(6);
    expect((await logs(`filter[username]=${tag}&filter[startTime]=${soon}`)).Data.totalCount).toBe(0);
    // Paging.
    const page2 = (
      await get<AdminWalletLogItem>(`/api/backAdmin/users.wallet.logs?filter[username]=${tag}&perPage=3&page=2`)
    ).Data;
    expect(page2).toMatchObject({ currentPage: 2, perPage: 3, totalCount: 6, totalPage: 2 });
    expect(page2.pageData).toHaveLength(3);

    // Orders: by payer, type and status.
    const orders = (q: string) =>
      get<AdminOrderItem>(`/api/backAdmin/users.order.logs?perPage=50&filter[username]=${tag}&${q}`);
    expect((await orders('')).Data.totalCount).toBe(3);
    const annOrders = (await orders(`filter[userId]=${ann.id}&filter[type]=${OrderType.THREAD}`)).Data;
    expect(annOrders.pageData).toMatchObject([
      {
        id: orderAnn,
        userId: ann.id,
        username: ann.username,
        nickname: 'Ann',
        amount: '3.00',
        status: OrderStatus.PAID,
      },
    ]);
    expect((await orders(`filter[status]=${OrderStatus.PENDING}`)).Data.pageData).toMatchObject([
      { type: OrderType.RECHARGE, amount: '50.00', paidAt: null },
    ]);
    expect((await orders(`filter[status]=${OrderStatus.PAID}`)).Data.pageData.map((o) => o.userId)).toEqual([
      bob.id,
      ann.id,
    ]);

    // Withdrawals: by status.
    const cash = (q: string) =>
      get<AdminCashItem>(`/api/backAdmin/users.cash.logs?perPage=50&filter[username]=${tag}&${q}`);
    expect((await cash('')).Data.pageData.map((c) => c.id)).toEqual([cashBob.id, cashAnn.id]);
    expect((await cash(`filter[status]=${CashStatus.REJECTED}`)).Data.pageData).toMatchObject([
      {
        id: cashBob.id,
        userId: bob.id,
        username: bob.username,
        cashApplyAmount: '20.00',
        cashCharge: '0.12',
        cashStatus: CashStatus.REJECTED,
        remark: 'no',
      },
    ]);
    expect((await cash(`filter[status]=${CashStatus.PENDING}&filter[userId]=${bob.id}`)).Data.totalCount).toBe(0);

    // Bad times, and who may ask.
    for (const path of ['users.wallet.logs', 'users.order.logs', 'users.cash.logs']) {
      for (const q of [
        'filter[startTime]=yesterday',
        'filter[endTime]=2026-02-30',
        'filter[startTime]=2026-13-01T00:00:00Z',
      ]) {
        const res = await t.get(`/api/backAdmin/${path}?${q}`, admin);
        expect([res.Code, (res.Data as { field?: string }).field], `${path} ${q}`).toEqual([
          Code.INVALID_PARAMETER,
          q.startsWith('filter[startTime]') ? 'filter.startTime' : 'filter.endTime',
        ]);
      }
      expect((await t.get(`/api/backAdmin/${path}`, ann.token)).Code).toBe(Code.UNAUTHORIZED);
      expect((await t.get(`/api/backAdmin/${path}`)).Code).toBe(Code.JUMP_TO_LOGIN);
    }
    for (const u of [ann, anna, bob]) await expectLedgerMatches(t, u.id);
  });
});
