import {
  CashStatus,
  Code,
  GroupId,
  WalletChangeType,
  type CashItem,
  type NotificationItem,
  type Page,
} from '@luntan/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memberPermissions, setGroupPermissions } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { releaseSandboxPayouts } from '../payments/index.js';
import {
  applyCash,
  balances,
  cashById,
  expectLedgerMatches,
  fund,
  reviewCash,
  setSettings,
} from '../../test/money-fixtures.js';
import { withdrawalFee } from './withdrawals.service.js';

let t: TestServer;
let admin: string;

const RULES = { cashMinSum: '1.00', cashMaxSum: '500.00', cashSumLimit: 10, cashRate: '0.60', cashPayoutProvider: '' };

beforeAll(async () => {
  t = await startTestServer({ env: { PAYMENT_SANDBOX: '1' } });
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await setSettings(t, admin, RULES);
});

const cashRows = (userId: number) =>
  t.app.ctx.db.selectFrom('walletCash').selectAll().where('userId', '=', userId).orderBy('id').execute();
const ledger = (userId: number) =>
  t.app.ctx.db.selectFrom('walletLogs').selectAll().where('userId', '=', userId).orderBy('id').execute();
const withdrawalNotices = async (token: string) =>
  (await t.get<Page<NotificationItem>>('/api/v3/notification?filter[type]=withdrawal&perPage=50', token)).Data.pageData;

let members = 0;
async function fundedMember(amount = '200.00') {
  members += 1;
  const nickname = `提现用户${members}`;
  const member = await buildUser(t, { nickname });
  await fund(t, admin, member.id, amount);
  return { ...member, nickname };
}

describe('the fee', () => {
  it('is the rate of the amount rounded up to a cent, in integers', () => {
    expect(withdrawalFee(10000, 60)).toBe(60);
    expect(withdrawalFee(1001, 60)).toBe(7); // 6.006 cents
    expect(withdrawalFee(100, 0)).toBe(0);
    expect(withdrawalFee(1, 1)).toBe(1);
    expect(withdrawalFee(10_000_000_000, 10_000)).toBe(10_000_000_000);
  });
});

describe('applying for a withdrawal', () => {
  it('freezes the amount and the fee, records it pending, and lists it as mine', async () => {
    const alice = await fundedMember();
    const res = await applyCash(t, alice, '100.00', 'alice@alipay');
    expect(res.Code).toBe(0);
    expect(res.Data).toMatchObject({
      userId: alice.id,
      cashApplyAmount: '100.00',
      cashCharge: '0.60',
      cashActualAmount: '100.00',
      receiveAccount: 'alice@alipay',
      cashStatus: CashStatus.PENDING,
      remark: '',
    });
    expect(res.Data.cashSn).toMatch(/^\d{24}$/);
    expect(await balances(t, alice.id)).toEqual({ available: 200_00 - 100_60, frozen: 100_60, status: 0 });
    const rows = await ledger(alice.id);
    expect(
      rows.map((r) => [r.changeType, Number(r.changeAvailableCents), Number(r.changeFrozenCents), r.cashId]),
    ).toEqual([
      [WalletChangeType.ADMIN_ADD, 200_00, 0, null],
      [WalletChangeType.CASH_FREEZE, -100_60, 100_60, res.Data.id],
    ]);
    // A number is taken too, and an odd fee rounds up.
    const second = await applyCash(t, alice, 10.01);
    expect(second.Data).toMatchObject({ cashApplyAmount: '10.01', cashCharge: '0.07' });
    const mine = await t.get<Page<CashItem>>('/api/v3/wallet/cash', alice.token);
    expect(mine.Data).toMatchObject({ currentPage: 1, totalCount: 2, totalPage: 1 });
    expect(mine.Data.pageData.map((c) => c.id)).toEqual([second.Data.id, res.Data.id]);
    const pending = await t.get<Page<CashItem>>(
      `/api/v3/wallet/cash?filter[cashStatus]=${CashStatus.PAID}`,
      alice.token,
    );
    expect(pending.Data.totalCount).toBe(0);
    // Nobody else's withdrawals are listed.
    const bob = await buildUser(t);
    expect((await t.get<Page<CashItem>>('/api/v3/wallet/cash', bob.token)).Data.totalCount).toBe(0);
    await expectLedgerMatches(t, alice.id);
  });

  it('refuses more than the balance (-10000) and records nothing', async () => {
    const alice = await fundedMember('50.00');
    // 50.00 + 0.30 fee is more than 50.00.
    const res = await applyCash(t, alice, '50.00');
    expect(res.Code).toBe(Code.PAYMENT_FAILED);
    expect(res.Data).toMatchObject({ reason: 'balance' });
    expect(await cashRows(alice.id)).toEqual([]);
    expect(await balances(t, alice.id)).toEqual({ available: 50_00, frozen: 0, status: 0 });
    // A member without a wallet at all.
    const bob = await buildUser(t);
    expect((await applyCash(t, bob, '1.00')).Code).toBe(Code.PAYMENT_FAILED);
    expect(await cashRows(bob.id)).toEqual([]);
    await expectLedgerMatches(t, alice.id);
    await expectLedgerMatches(t, bob.id);
  });

  it('refuses amounts below the minimum or above the maximum, naming the limit (-4001)', async () => {
    const alice = await fundedMember('1000.00');
    const low = await applyCash(t, alice, '0.99');
    expect(low.Code).toBe(Code.INVALID_PARAMETER);
    expect(low.Data).toMatchObject({ field: 'cashApplyAmount', min: '1.00' });
    expect(low.Message).toContain('1.00');
    const high = await t.call('POST', '/api/v3/wallet/cash', {
      token: alice.token,
      body: { cashApplyAmount: '500.01', receiveAccount: 'x' },
      headers: { cookie: 'locale=en' },
    });
    expect(high.body.Code).toBe(Code.INVALID_PARAMETER);
    expect(high.body.Data).toMatchObject({ field: 'cashApplyAmount', max: '500.00' });
    expect(high.body.Message).toBe('The withdrawal amount may be at most 500.00');
    expect((await applyCash(t, alice, '500.00')).Code).toBe(0);
    // Malformed amounts and accounts are the schema's.
    for (const body of [
      { cashApplyAmount: '1.001', receiveAccount: 'x' },
      { cashApplyAmount: '-1', receiveAccount: 'x' },
      { cashApplyAmount: '5.00', receiveAccount: ' ' },
      { cashApplyAmount: '5.00' },
    ]) {
      expect((await t.post('/api/v3/wallet/cash', body, alice.token)).Code).toBe(Code.INVALID_PARAMETER);
    }
    expect(await cashRows(alice.id)).toHaveLength(1);
    await expectLedgerMatches(t, alice.id);
  });

  it('allows cashSumLimit withdrawals a day; rejected ones do not count', async () => {
    await setSettings(t, admin, { cashSumLimit: 2 });
    const alice = await fundedMember();
    const first = await applyCash(t, alice, '1.00');
    expect((await applyCash(t, alice, '1.00')).Code).toBe(0);
    const third = await applyCash(t, alice, '1.00');
    expect(third.Code).toBe(Code.INVALID_PARAMETER);
    expect(third.Data).toMatchObject({ field: 'cashApplyAmount', dailyCount: 2 });
    expect(third.Message).toContain('2');
    expect(await cashRows(alice.id)).toHaveLength(2);
    expect((await reviewCash(t, admin, [first.Data.id], CashStatus.REJECTED, 'no')).Data.succeeded).toEqual([
      first.Data.id,
    ]);
    expect((await applyCash(t, alice, '1.00')).Code).toBe(0);
    expect((await applyCash(t, alice, '1.00')).Code).toBe(Code.INVALID_PARAMETER);
    // Two at once at the limit: one is taken.
    const bob = await fundedMember();
    await applyCash(t, bob, '1.00');
    const both = await Promise.all([applyCash(t, bob, '1.00'), applyCash(t, bob, '1.00')]);
    expect(both.map((r) => r.Code).sort()).toEqual([Code.INVALID_PARAMETER, 0].sort());
    expect(await cashRows(bob.id)).toHaveLength(2);
    await expectLedgerMatches(t, alice.id);
    await expectLedgerMatches(t, bob.id);
  });

  it('needs a login (-3001), cash.create (-4002) and a wallet that is not frozen (-10000)', async () => {
    expect((await applyCash(t, undefined, '1.00')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.get('/api/v3/wallet/cash')).Code).toBe(Code.JUMP_TO_LOGIN);
    const alice = await fundedMember();
    const saved = await memberPermissions(t, admin);
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      saved.filter((p) => p !== 'cash.create'),
    );
    try {
      expect((await applyCash(t, alice, '1.00')).Code).toBe(Code.UNAUTHORIZED);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, saved);
    }
    const frozen = await t.post('/api/backAdmin/users/wallet.update', { userId: alice.id, walletStatus: 1 }, admin);
    expect(frozen.Code).toBe(0);
    const res = await applyCash(t, alice, '1.00');
    expect(res.Code).toBe(Code.PAYMENT_FAILED);
    expect(res.Data).toMatchObject({ reason: 'frozen' });
    expect(await cashRows(alice.id)).toEqual([]);
    await t.post('/api/backAdmin/users/wallet.update', { userId: alice.id, walletStatus: 0 }, admin);
    expect((await applyCash(t, alice, '1.00')).Code).toBe(0);
    await expectLedgerMatches(t, alice.id);
  });
});

describe('reviewing withdrawals', () => {
  it('rejecting returns the amount and the fee, and tells the member why', async () => {
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '100.00')).Data;
    const res = await reviewCash(t, admin, [cash.id], CashStatus.REJECTED, '账号有误');
    expect(res.Code).toBe(0);
    expect(res.Data).toEqual({ succeeded: [cash.id], failed: [] });
    expect(await balances(t, alice.id)).toEqual({ available: 200_00, frozen: 0, status: 0 });
    const row = await cashById(t, admin, alice.id, cash.id);
    expect(row).toMatchObject({ cashStatus: CashStatus.REJECTED, remark: '账号有误', username: alice.username });
    expect(row.reviewerId).toBeGreaterThan(0);
    expect(Date.parse(row.reviewedAt ?? '')).toBeGreaterThan(0);
    const thaw = (await ledger(alice.id)).at(-1)!;
    expect([thaw.changeType, Number(thaw.changeAvailableCents), Number(thaw.changeFrozenCents), thaw.cashId]).toEqual([
      WalletChangeType.CASH_THAW,
      100_60,
      -100_60,
      cash.id,
    ]);
    const notices = await withdrawalNotices(alice.token);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ type: 'withdrawal', category: 'financial', fromUser: null });
    expect(notices[0]!.content).toBe(`${alice.nickname}，你申请的 100.00 元提现被驳回，金额已退回钱包。原因：账号有误`);
    await expectLedgerMatches(t, alice.id);
  });

  it('approving without a payout provider waits for payment by hand; marking it paid takes the money out', async () => {
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '100.00')).Data;
    // Marking a pending one paid is the wrong order.
    expect((await reviewCash(t, admin, [cash.id], CashStatus.PAID)).Data.failed).toMatchObject([
      { id: cash.id, reason: 'status' },
    ]);
    expect((await reviewCash(t, admin, [cash.id], CashStatus.APPROVED, 'ok')).Data.succeeded).toEqual([cash.id]);
    expect((await cashById(t, admin, alice.id, cash.id)).cashStatus).toBe(CashStatus.APPROVED);
    expect(await balances(t, alice.id)).toEqual({ available: 99_40, frozen: 100_60, status: 0 });
    expect((await reviewCash(t, admin, [cash.id], CashStatus.PAID, 'paid by bank')).Data.succeeded).toEqual([cash.id]);
    const row = await cashById(t, admin, alice.id, cash.id);
    expect(row).toMatchObject({ cashStatus: CashStatus.PAID, remark: 'paid by bank', tradeNo: null });
    expect(await balances(t, alice.id)).toEqual({ available: 99_40, frozen: 0, status: 0 });
    const paid = (await ledger(alice.id)).at(-1)!;
    expect([paid.changeType, Number(paid.changeAvailableCents), Number(paid.changeFrozenCents)]).toEqual([
      WalletChangeType.CASH_PAID,
      0,
      -100_60,
    ]);
    // Approved, then paid: one notice per step, each saying which, addressed by nickname.
    const notices = await withdrawalNotices(alice.token);
    expect(notices.map((n) => n.content)).toEqual([
      `${alice.nickname}，你申请的 100.00 元提现已打款。`,
      `${alice.nickname}，你申请的 100.00 元提现已通过审核，等待打款。`,
    ]);
    // Paid is final.
    for (const status of [CashStatus.REJECTED, CashStatus.APPROVED, CashStatus.PAID]) {
      expect((await reviewCash(t, admin, [cash.id], status)).Data.failed).toMatchObject([
        { id: cash.id, reason: 'status' },
      ]);
    }
    await expectLedgerMatches(t, alice.id);
  });

  it('an approved withdrawal not yet paid may still be rejected', async () => {
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '10.00')).Data;
    await reviewCash(t, admin, [cash.id], CashStatus.APPROVED);
    expect((await reviewCash(t, admin, [cash.id], CashStatus.REJECTED, 'changed mind')).Data.succeeded).toEqual([
      cash.id,
    ]);
    expect(await balances(t, alice.id)).toEqual({ available: 200_00, frozen: 0, status: 0 });
    await expectLedgerMatches(t, alice.id);
  });

  it('approving with the sandbox payout pays at once (status 5, the provider’s number)', async () => {
    await setSettings(t, admin, { cashPayoutProvider: 'sandbox' });
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '100.00', 'alice@sandbox')).Data;
    const res = await reviewCash(t, admin, [cash.id], CashStatus.APPROVED);
    expect(res.Data).toEqual({ succeeded: [cash.id], failed: [] });
    const row = await cashById(t, admin, alice.id, cash.id);
    expect(row).toMatchObject({ cashStatus: CashStatus.PAID, tradeNo: `SBX${cash.cashSn}` });
    expect(await balances(t, alice.id)).toEqual({ available: 99_40, frozen: 0, status: 0 });
    expect((await ledger(alice.id)).map((r) => r.changeType)).toEqual([
      WalletChangeType.ADMIN_ADD,
      WalletChangeType.CASH_FREEZE,
      WalletChangeType.CASH_PAID,
    ]);
    expect(await withdrawalNotices(alice.token)).toHaveLength(1);
    await expectLedgerMatches(t, alice.id);
  });

  it('a payout the provider refuses fails the withdrawal (status 6) and returns the money', async () => {
    await setSettings(t, admin, { cashPayoutProvider: 'sandbox' });
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '100.00', 'sandbox-refuse@example.com')).Data;
    const res = await reviewCash(t, admin, [cash.id], CashStatus.APPROVED);
    expect(res.Data.succeeded).toEqual([]);
    expect(res.Data.failed).toMatchObject([{ id: cash.id, reason: 'payout' }]);
    expect(res.Data.failed[0]!.message).toContain('account closed');
    const row = await cashById(t, admin, alice.id, cash.id);
    expect(row).toMatchObject({ cashStatus: CashStatus.PAYOUT_FAILED, remark: 'account closed', tradeNo: null });
    expect(await balances(t, alice.id)).toEqual({ available: 200_00, frozen: 0, status: 0 });
    const notices = await withdrawalNotices(alice.token);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toContain('account closed');
    // Failed is final.
    expect((await reviewCash(t, admin, [cash.id], CashStatus.REJECTED)).Data.failed).toMatchObject([
      { reason: 'status' },
    ]);
    await expectLedgerMatches(t, alice.id);
  });

  it('a provider that does not answer leaves the withdrawal approved, to be settled by hand', async () => {
    await setSettings(t, admin, { cashPayoutProvider: 'sandbox' });
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '100.00', 'sandbox-error@example.com')).Data;
    const res = await reviewCash(t, admin, [cash.id], CashStatus.APPROVED);
    expect(res.Data.failed).toMatchObject([{ id: cash.id, reason: 'payout' }]);
    expect(await cashById(t, admin, alice.id, cash.id)).toMatchObject({
      cashStatus: CashStatus.APPROVED,
      tradeNo: null,
    });
    expect(await balances(t, alice.id)).toEqual({ available: 99_40, frozen: 100_60, status: 0 });
    expect((await reviewCash(t, admin, [cash.id], CashStatus.PAID)).Data.succeeded).toEqual([cash.id]);
    expect(await balances(t, alice.id)).toEqual({ available: 99_40, frozen: 0, status: 0 });
    await expectLedgerMatches(t, alice.id);
  });

  it('a payout still being processed leaves the withdrawal approved and the money frozen', async () => {
    await setSettings(t, admin, { cashPayoutProvider: 'sandbox' });
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '100.00', 'sandbox-pending@example.com')).Data;
    const res = await reviewCash(t, admin, [cash.id], CashStatus.APPROVED);
    expect(res.Data.failed).toMatchObject([{ id: cash.id, reason: 'payout' }]);
    expect(await cashById(t, admin, alice.id, cash.id)).toMatchObject({ cashStatus: CashStatus.APPROVED });
    expect(await balances(t, alice.id)).toEqual({ available: 99_40, frozen: 100_60, status: 0 });
    await expectLedgerMatches(t, alice.id);
  });

  it('nobody can reject or mark paid a withdrawal while its payout is in flight', async () => {
    await setSettings(t, admin, { cashPayoutProvider: 'sandbox' });
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '100.00', 'sandbox-hold@example.com')).Data;
    const approving = reviewCash(t, admin, [cash.id], CashStatus.APPROVED);
    try {
      // The sandbox holds this account's payout until the test lets it go; meanwhile the withdrawal is marked as
      // being paid out.
      const inFlight = async () =>
        (
          await t.app.ctx.db
            .selectFrom('walletCash')
            .select('tradeNo')
            .where('id', '=', cash.id)
            .executeTakeFirstOrThrow()
        ).tradeNo === '';
      const deadline = Date.now() + 15_000;
      while (!(await inFlight()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await inFlight()).toBe(true);
      for (const status of [CashStatus.REJECTED, CashStatus.PAID, CashStatus.APPROVED]) {
        expect((await reviewCash(t, admin, [cash.id], status)).Data.failed).toMatchObject([
          { id: cash.id, reason: 'status' },
        ]);
      }
    } finally {
      releaseSandboxPayouts();
    }
    expect((await approving).Data.succeeded).toEqual([cash.id]);
    expect(await cashById(t, admin, alice.id, cash.id)).toMatchObject({
      cashStatus: CashStatus.PAID,
      tradeNo: `SBX${cash.cashSn}`,
    });
    await expectLedgerMatches(t, alice.id);
  });

  it('decides each id once: twice in a row, twice at once, unknown ids, several ids in one call', async () => {
    const alice = await fundedMember();
    const [a, b, c] = [
      (await applyCash(t, alice, '10.00')).Data,
      (await applyCash(t, alice, '20.00')).Data,
      (await applyCash(t, alice, '30.00')).Data,
    ];
    expect((await reviewCash(t, admin, [a.id], CashStatus.REJECTED)).Data.succeeded).toEqual([a.id]);
    const again = await reviewCash(t, admin, [a.id], CashStatus.REJECTED);
    expect(again.Code).toBe(0);
    expect(again.Data).toMatchObject({ succeeded: [], failed: [{ id: a.id, reason: 'status' }] });
    expect(again.Data.failed[0]!.message.length).toBeGreaterThan(0);
    // Two reviewers at once: one of them decides it.
    const both = await Promise.all([
      reviewCash(t, admin, [b.id], CashStatus.REJECTED),
      reviewCash(t, admin, [b.id], CashStatus.REJECTED),
    ]);
    expect(both.map((r) => r.Data.succeeded.length).sort()).toEqual([0, 1]);
    // Several at once; an unknown id and a repeated one.
    const mixed = await reviewCash(t, admin, [c.id, 99_999_999, c.id, a.id], CashStatus.APPROVED);
    expect(mixed.Data.succeeded).toEqual([c.id]);
    expect(mixed.Data.failed).toMatchObject([
      { id: 99_999_999, reason: 'notFound' },
      { id: a.id, reason: 'status' },
    ]);
    // 10.06 and 20.12 went back; 30.18 stays frozen.
    expect(await balances(t, alice.id)).toEqual({ available: 200_00 - 30_18, frozen: 30_18, status: 0 });
    await expectLedgerMatches(t, alice.id);
  });

  it('is for administrators only (-3001 guests, -4002 members) and checks its input', async () => {
    const alice = await fundedMember();
    const cash = (await applyCash(t, alice, '10.00')).Data;
    expect((await reviewCash(t, alice.token, [cash.id], CashStatus.REJECTED)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.post('/api/backAdmin/wallet.cash.review', { ids: [cash.id], cashStatus: 3 })).Code).toBe(
      Code.JUMP_TO_LOGIN,
    );
    for (const body of [
      { ids: [], cashStatus: 3 },
      { ids: [cash.id], cashStatus: 4 },
      { ids: [cash.id], cashStatus: 1 },
      { ids: [0], cashStatus: 3 },
      { ids: cash.id, cashStatus: 3 },
      { ids: [cash.id], cashStatus: 3, remark: 'x'.repeat(201) },
    ]) {
      const res = await t.post('/api/backAdmin/wallet.cash.review', body, admin);
      expect(res.Code, JSON.stringify(body)).toBe(Code.INVALID_PARAMETER);
    }
    expect((await cashById(t, admin, alice.id, cash.id)).cashStatus).toBe(CashStatus.PENDING);
    await expectLedgerMatches(t, alice.id);
  });
});
