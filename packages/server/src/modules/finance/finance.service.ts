import {
  formatMoney,
  WalletChangeType,
  type AdminCashItem,
  type AdminOrderItem,
  type AdminWalletLogItem,
  type FinanceChartPoint,
  type FinanceStats,
  type Page,
  type WalletInfo,
  pageOf,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { invalidField, notFoundField } from '../../core/errors.js';
import { localize } from '../../core/i18n.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { applyChange, ensureWallet, readBalances } from '../wallet/index.js';
import { readSiteSettings } from '../settings/index.js';
import { presentCash } from '../withdrawals/index.js';
import { chartPoints, chartRange, rangeBounds, utcDayOf, type ChartGrouping } from './finance-chart.js';
import {
  countOrders,
  countWalletLogs,
  countWithdrawals,
  financeByDay,
  financeTotals,
  listOrders,
  listWalletLogs,
  listWithdrawals,
  setWalletStatus,
  userExists,
  type MoneyListFilter,
} from './finance.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * The administrators' money: adjusting a wallet by hand (through the ledger, like every other change), the three
 * lists of every user's ledger, orders and withdrawals, and the finance statistics.
 */

// --- wallet.update ---------------------------------------------------------------------------------------------------

export interface WalletUpdate {
  userId: number;
  operateType?: number | undefined;
  operateAmount?: number | undefined;
  operateReason: string;
  walletStatus?: 0 | 1 | undefined;
}

export type WalletState = Pick<WalletInfo, 'userId' | 'availableAmount' | 'freezeAmount' | 'walletStatus'>;

/**
 * POST /api/backAdmin/users/wallet.update: adds or subtracts money (operateType 1 / 2 with operateAmount) and/or
 * freezes or unfreezes the wallet (walletStatus 1 / 0), in one transaction: subtracting more than is available
 * changes nothing at all (-10000). Answers the wallet as it is after.
 */
export async function updateWalletByAdmin(
  ctx: AppContext,
  operatorId: number,
  body: WalletUpdate,
): Promise<WalletState> {
  const { userId, operateType, operateAmount, walletStatus } = body;
  if (operateType !== undefined && operateAmount === undefined) {
    throw invalidField('operateAmount', msg('finance.giveAmount'));
  }
  if (operateAmount !== undefined && operateType === undefined) {
    throw invalidField('operateType', msg('finance.chooseAddSubtract'));
  }
  if (operateType === undefined && walletStatus === undefined) {
    throw invalidField('operateType', msg('finance.giveAmountAddSubtract'));
  }
  if (!(await userExists(ctx.db, userId))) throw notFoundField('userId', msg('finance.noSuchUser'));
  // The ledger's text is written once, in the site's language.
  const locale = (await readSiteSettings(ctx.db)).siteLocale === 'en' ? 'en' : 'zh';
  await ctx.db.transaction().execute(async (trx) => {
    await ensureWallet(trx, userId);
    if (walletStatus !== undefined) await setWalletStatus(trx, userId, walletStatus, now());
    if (operateType !== undefined && operateAmount !== undefined) {
      const adding = operateType === 1;
      const fallback = adding ? msg('finance.addedAdministrator') : msg('finance.subtractedAdministrator');
      await applyChange(trx, {
        userId,
        available: adding ? operateAmount : -operateAmount,
        type: adding ? WalletChangeType.ADMIN_ADD : WalletChangeType.ADMIN_SUBTRACT,
        operatorId,
        desc: body.operateReason || localize(fallback, locale),
      });
    }
  });
  const after = await readBalances(ctx.db, userId);
  return {
    userId,
    availableAmount: formatMoney(after.availableCents),
    freezeAmount: formatMoney(after.frozenCents),
    walletStatus: after.status,
  };
}

// --- The three lists -------------------------------------------------------------------------------------------------

export interface MoneyListQuery {
  page: number;
  perPage: number;
  filter: {
    userId?: number | undefined;
    username?: string | undefined;
    type?: number | undefined;
    status?: number | undefined;
    startTime?: string | undefined;
    endTime?: string | undefined;
  };
}

/** A time bound: an ISO time as given, or a date (2026-11-01) meaning its whole UTC day. */
function timeBound(value: string, field: string, edge: 'start' | 'end'): { at: string; exclusive: boolean } {
  const text = value.trim();
  const day = utcDayOf(text);
  if (day === null) {
    throw invalidField(field, edge === 'start' ? msg('finance.startTimeFormat') : msg('finance.endTimeFormat'));
  }
  if (text.length > 10) return { at: new Date(Date.parse(text)).toISOString(), exclusive: false };
  if (edge === 'start') return { at: `${day}T00:00:00.000Z`, exclusive: false };
  return { at: new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString(), exclusive: true };
}

function listFilter(f: MoneyListQuery['filter']): MoneyListFilter {
  const start = f.startTime?.trim() ? timeBound(f.startTime, 'filter.startTime', 'start') : undefined;
  const end = f.endTime?.trim() ? timeBound(f.endTime, 'filter.endTime', 'end') : undefined;
  const username = f.username?.trim().toLowerCase();
  return {
    userId: f.userId,
    usernamePrefix: username || undefined,
    type: f.type,
    status: f.status,
    from: start?.at,
    to: end?.at,
    toExclusive: end?.exclusive ?? false,
  };
}

const paging = (q: MoneyListQuery) => ({ limit: q.perPage, offset: (q.page - 1) * q.perPage });

const money = (value: unknown) => formatMoney(Number(value ?? 0));

/** GET /api/backAdmin/users.wallet.logs: every user's ledger, newest first; filter[type] is the change type. */
export async function listWalletLogsForAdmin(db: Kysely<DB>, q: MoneyListQuery): Promise<Page<AdminWalletLogItem>> {
  const f = listFilter(q.filter);
  const [total, rows] = await Promise.all([countWalletLogs(db, f), listWalletLogs(db, f, paging(q))]);
  return pageOf(
    rows.map((r) => ({
      id: r.id,
      userId: r.userId,
      username: r.username,
      nickname: r.nickname,
      changeAvailableAmount: money(r.changeAvailableCents),
      changeFreezeAmount: money(r.changeFrozenCents),
      availableAmount: money(r.availableAfterCents),
      freezeAmount: money(r.frozenAfterCents),
      changeType: r.changeType,
      changeDesc: r.changeDesc,
      orderSn: r.orderSn,
      cashSn: r.cashSn,
      operatorId: r.operatorId,
      createdAt: r.createdAt,
    })),
    q.page,
    q.perPage,
    total,
  );
}

/** GET /api/backAdmin/users.order.logs: every order, newest first; filter[type] order type, filter[status]. */
export async function listOrdersForAdmin(db: Kysely<DB>, q: MoneyListQuery): Promise<Page<AdminOrderItem>> {
  const f = listFilter(q.filter);
  const [total, rows] = await Promise.all([countOrders(db, f), listOrders(db, f, paging(q))]);
  return pageOf(
    rows.map((r) => ({
      id: r.id,
      orderSn: r.orderSn,
      type: r.type,
      status: r.status,
      amount: money(r.amountCents),
      authorAmount: money(r.authorAmountCents),
      masterAmount: money(r.masterAmountCents),
      userId: r.userId,
      username: r.username,
      nickname: r.nickname,
      payeeId: r.payeeId,
      threadId: r.threadId,
      groupId: r.groupId,
      title: r.threadTitle ?? r.groupName ?? '',
      paymentType: r.paymentType,
      isAnonymous: r.isAnonymous === 1,
      tradeNo: r.tradeNo,
      createdAt: r.createdAt,
      paidAt: r.paidAt,
      expiresAt: r.expiresAt,
    })),
    q.page,
    q.perPage,
    total,
  );
}

/** GET /api/backAdmin/users.cash.logs: every withdrawal, newest first; filter[status] is the withdrawal's. */
export async function listWithdrawalsForAdmin(db: Kysely<DB>, q: MoneyListQuery): Promise<Page<AdminCashItem>> {
  const f = listFilter({ ...q.filter, type: undefined });
  const [total, rows] = await Promise.all([countWithdrawals(db, f), listWithdrawals(db, f, paging(q))]);
  return pageOf(
    rows.map((r) => ({
      ...presentCash(r),
      username: r.username,
      nickname: r.nickname,
      reviewerId: r.reviewerId,
      reviewedAt: r.reviewedAt,
      tradeNo: r.tradeNo,
    })),
    q.page,
    q.perPage,
    total,
  );
}

// --- Statistics ------------------------------------------------------------------------------------------------------

/** GET /api/statistic/finance.v2 */
export async function financeStats(db: Kysely<DB>): Promise<FinanceStats> {
  const t = await financeTotals(db);
  return {
    totalIncome: formatMoney(t.incomeCents),
    totalWithdrawal: formatMoney(t.withdrawnCents),
    totalWallet: formatMoney(t.walletCents),
    totalProfit: formatMoney(t.registerCents + t.royaltyCents + t.feeCents),
    withdrawalProfit: formatMoney(t.feeCents),
    orderRoyalty: formatMoney(t.royaltyCents),
    totalRegisterProfit: formatMoney(t.registerCents),
    orderCount: t.orderCount,
  };
}

/** GET /api/statistic/financeChart.v2: one point per day, week (from Monday) or month of the range, zeros included. */
export async function financeChart(
  db: Kysely<DB>,
  q: { createdAtBegin?: string | undefined; createdAtEnd?: string | undefined; type: number },
): Promise<FinanceChartPoint[]> {
  const range = chartRange(q, now().slice(0, 10));
  const { from, to } = rangeBounds(range);
  const grouping: ChartGrouping = q.type === 2 ? 2 : q.type === 3 ? 3 : 1;
  return chartPoints(range, grouping, await financeByDay(db, from, to));
}
