import {
  CashStatus,
  Code,
  formatMoney,
  parseMoney,
  parsePercent,
  WalletChangeType,
  type CashItem,
  type CashReviewResult,
  type Locale,
  type Page,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, fieldError, forbidden, type LocalizedText } from '../../core/errors.js';
import { localize } from '../../core/i18n.js';
import { now } from '../../core/time.js';
import type { DB, WalletCash } from '../../db/schema.js';
import { can, requireUser, type ViewerContext } from '../../access/viewer.js';
import { payoutThrough } from '../payments/index.js';
import { readSiteSettings } from '../settings/index.js';
import { applyChange, checkPayPassword, newSerial } from '../wallet/index.js';
import {
  countOwnWithdrawals,
  countWithdrawalsSince,
  findWithdrawal,
  insertWithdrawal,
  listOwnWithdrawals,
  markPayoutSettled,
  moveWithdrawal,
} from './withdrawals.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * Withdrawals: a member applies (the amount and the fee move from available to frozen, in the transaction that
 * writes the withdrawal), an administrator decides (reject: the money goes back; approve: paid out by a provider
 * or later by hand; the frozen money then leaves the site and the fee stays as the site's profit). Every decision
 * is a conditional status change, so a withdrawal is decided once however many reviewers press at once.
 */

export interface CashRules {
  minCents: number;
  /** 0: no upper limit. */
  maxCents: number;
  /** Withdrawals a member may apply for per UTC day; 0: no limit. */
  dailyCount: number;
  /** The fee in basis points (hundredths of a percent). */
  rateBp: number;
  /** '' : administrators pay approved withdrawals by hand. */
  payoutProvider: string;
  /** The site's language: the ledger's descriptions are written in it. */
  locale: Locale;
}

export async function readCashRules(db: Kysely<DB>): Promise<CashRules> {
  const s = await readSiteSettings(db);
  const count = Number(s.cashSumLimit);
  return {
    minCents: parseMoney(String(s.cashMinSum)) ?? 0,
    maxCents: parseMoney(String(s.cashMaxSum)) ?? 0,
    dailyCount: Number.isInteger(count) && count > 0 ? count : 0,
    rateBp: parsePercent(String(s.cashRate)) ?? 0,
    payoutProvider: String(s.cashPayoutProvider ?? '').trim(),
    locale: s.siteLocale === 'en' ? 'en' : 'zh',
  };
}

/** The fee: the rate of the amount, rounded up to a whole cent (integer arithmetic only). */
export function withdrawalFee(amountCents: number, rateBp: number): number {
  return Math.floor((amountCents * rateBp + 9_999) / 10_000);
}

export function presentCash(row: WalletCash): CashItem {
  return {
    id: row.id,
    cashSn: row.cashSn,
    userId: row.userId,
    cashApplyAmount: formatMoney(Number(row.applyCents)),
    cashCharge: formatMoney(Number(row.chargeCents)),
    cashActualAmount: formatMoney(Number(row.applyCents)),
    receiveAccount: row.receiveAccount,
    cashStatus: row.status,
    remark: row.remark,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const amountRefused = (text: LocalizedText, limit: Record<string, unknown>) =>
  fieldError(Code.INVALID_PARAMETER, 'cashApplyAmount', text, limit);

const dailyLimitReached = (count: number) =>
  amountRefused(msg('withdrawals.mostWithdrawalsAppliedPer', { count }), { dailyCount: count });

/** trade_no of a withdrawal whose payout is in flight (the provider's number replaces it when it is paid). */
const PAYING = '';

const startOfUtcDay = (iso: string) => `${iso.slice(0, 10)}T00:00:00.000Z`;

/** POST /api/v3/wallet/cash: freezes the amount and its fee and records the withdrawal, or changes nothing. */
export async function applyForWithdrawal(
  ctx: AppContext,
  viewer: ViewerContext,
  body: { cashApplyAmount: number; receiveAccount: string; payPassword?: string | undefined },
): Promise<CashItem> {
  const me = requireUser(viewer);
  if (!can(viewer, 'cash.create')) throw forbidden();
  const rules = await readCashRules(ctx.db);
  const amount = body.cashApplyAmount;
  if (amount < rules.minCents) {
    const min = formatMoney(rules.minCents);
    throw amountRefused(msg('withdrawals.withdrawalAmountLeast', { min }), { min });
  }
  if (rules.maxCents > 0 && amount > rules.maxCents) {
    const max = formatMoney(rules.maxCents);
    throw amountRefused(msg('withdrawals.withdrawalAmountMost', { max }), { max });
  }
  const at = now();
  const since = startOfUtcDay(at);
  // A quick refusal first; the count is taken again under the wallet's lock below, for two applications at once.
  if (rules.dailyCount > 0 && (await countWithdrawalsSince(ctx.db, me.id, since)) >= rules.dailyCount) {
    throw dailyLimitReached(rules.dailyCount);
  }
  // Money leaving the site needs the pay password (the same tries and lock as paying from the wallet); a request
  // the rules refuse anyway costs no try.
  await checkPayPassword(ctx.db, me.id, body.payPassword);
  const fee = withdrawalFee(amount, rules.rateBp);
  const total = amount + fee;
  const id = await ctx.db.transaction().execute(async (trx) => {
    const cashId = await insertWithdrawal(trx, {
      cashSn: newSerial(),
      userId: me.id,
      applyCents: amount,
      chargeCents: fee,
      receiveAccount: body.receiveAccount,
      at,
    });
    await applyChange(trx, {
      userId: me.id,
      available: -total,
      frozen: total,
      type: WalletChangeType.CASH_FREEZE,
      cashId,
      requireActive: true,
      desc: localize(msg('withdrawals.withdrawalAppliedFrozen'), rules.locale),
    });
    // The wallet's row is now locked (PostgreSQL) or the database is (SQLite): this count sees every other
    // application of today that committed, and includes this one.
    if (rules.dailyCount > 0 && (await countWithdrawalsSince(trx, me.id, since)) > rules.dailyCount) {
      throw dailyLimitReached(rules.dailyCount);
    }
    return cashId;
  });
  const row = await findWithdrawal(ctx.db, id);
  if (!row) throw new Error('the withdrawal just made is missing');
  return presentCash(row);
}

/** GET /api/v3/wallet/cash: my withdrawals, newest first. */
export async function listMyWithdrawals(
  db: Kysely<DB>,
  viewer: ViewerContext,
  q: { page: number; perPage: number; filter: { cashStatus?: number | undefined } },
): Promise<Page<CashItem>> {
  const me = requireUser(viewer);
  const status = q.filter.cashStatus;
  const [totalCount, rows] = await Promise.all([
    countOwnWithdrawals(db, me.id, status),
    listOwnWithdrawals(db, me.id, { status, limit: q.perPage, offset: (q.page - 1) * q.perPage }),
  ]);
  return {
    pageData: rows.map(presentCash),
    currentPage: q.page,
    perPage: q.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / q.perPage),
  };
}

// --- Review ----------------------------------------------------------------------------------------------------------

type Failure = CashReviewResult['failed'][number]['reason'];

const FAILURE_TEXT: Record<Failure, LocalizedText> = {
  notFound: msg('withdrawals.noSuchWithdrawal'),
  status: msg('withdrawals.withdrawalNotStateDecision'),
  balance: msg('withdrawals.frozenBalanceDoesNot'),
  payout: msg('withdrawals.payoutFailed'),
};

/** One decision's outcome: done, or why not (with a more precise sentence where there is one). */
type Outcome = { ok: true } | { ok: false; reason: Failure; text?: LocalizedText };

const done: Outcome = { ok: true };
const refused = (reason: Failure, text?: LocalizedText): Outcome =>
  text ? { ok: false, reason, text } : { ok: false, reason };

interface Decision {
  reviewerId: number;
  remark: string;
  rules: CashRules;
}

const REMARK_MAX = 255;

/** POST /api/backAdmin/wallet.cash.review: each id on its own; a withdrawal in another state is reported, not an error. */
export async function reviewWithdrawals(
  ctx: AppContext,
  reviewerId: number,
  body: { ids: number[]; cashStatus: number; remark: string },
  locale: Locale,
): Promise<CashReviewResult> {
  const rules = await readCashRules(ctx.db);
  const decision: Decision = { reviewerId, remark: body.remark, rules };
  const result: CashReviewResult = { succeeded: [], failed: [] };
  for (const id of [...new Set(body.ids)]) {
    let outcome: Outcome;
    try {
      outcome = await decide(ctx, id, body.cashStatus, decision);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== Code.PAYMENT_FAILED) throw err;
      outcome = refused('balance');
    }
    if (outcome.ok) result.succeeded.push(id);
    else
      result.failed.push({
        id,
        reason: outcome.reason,
        message: localize(outcome.text ?? FAILURE_TEXT[outcome.reason], locale),
      });
  }
  return result;
}

async function decide(ctx: AppContext, id: number, target: number, d: Decision): Promise<Outcome> {
  const cash = await findWithdrawal(ctx.db, id);
  if (!cash) return refused('notFound');
  switch (target) {
    case CashStatus.REJECTED:
      if (cash.status !== CashStatus.PENDING && cash.status !== CashStatus.APPROVED) return refused('status');
      return (await thaw(ctx, cash, cash.status, CashStatus.REJECTED, d, d.remark)) ? done : refused('status');
    case CashStatus.PAID:
      if (cash.status !== CashStatus.APPROVED) return refused('status');
      return (await payOut(ctx, cash, d, null)) ? done : refused('status');
    case CashStatus.APPROVED:
      if (cash.status !== CashStatus.PENDING) return refused('status');
      return approve(ctx, cash, d);
    default:
      return refused('status');
  }
}

const stamp = (d: Decision, remark: string) => {
  const at = now();
  return { reviewerId: d.reviewerId, reviewedAt: at, updatedAt: at, remark: remark.slice(0, REMARK_MAX) };
};

/** Announces the step a withdrawal took, in the transaction of the step (what its member is told). */
const announce = (ctx: AppContext, trx: Kysely<DB>, cash: WalletCash, status: number, remark: string) =>
  ctx.events.emit(trx, 'withdrawal.reviewed', {
    withdrawalId: cash.id,
    userId: cash.userId,
    status,
    applyCents: Number(cash.applyCents),
    remark: remark.slice(0, REMARK_MAX),
  });

const ledgerText = (d: Decision, text: { zh: string; en: string }) => localize(text, d.rules.locale);

/** Rejected or a refused payout: the withdrawal leaves `from` and its frozen money goes back to available. */
async function thaw(
  ctx: AppContext,
  cash: WalletCash,
  from: number,
  to: number,
  d: Decision,
  remark: string,
  paying = false,
): Promise<boolean> {
  const total = Number(cash.applyCents) + Number(cash.chargeCents);
  return ctx.db.transaction().execute(async (trx) => {
    const changes = { status: to, ...stamp(d, remark), ...(paying ? { tradeNo: null } : {}) };
    if (!(await moveWithdrawal(trx, cash.id, from, changes, { paying }))) return false;
    await applyChange(trx, {
      userId: cash.userId,
      available: total,
      frozen: -total,
      type: WalletChangeType.CASH_THAW,
      cashId: cash.id,
      desc: ledgerText(
        d,
        to === CashStatus.REJECTED
          ? msg('withdrawals.withdrawalRejectedReturned')
          : msg('withdrawals.withdrawalPayoutFailedReturned'),
      ),
    });
    await announce(ctx, trx, cash, to, remark);
    return true;
  });
}

/** Paid (by hand, or by the provider with its transaction number): the frozen amount and fee leave the wallet. */
async function payOut(ctx: AppContext, cash: WalletCash, d: Decision, tradeNo: string | null): Promise<boolean> {
  const total = Number(cash.applyCents) + Number(cash.chargeCents);
  return ctx.db.transaction().execute(async (trx) => {
    const changes = { status: CashStatus.PAID, ...stamp(d, d.remark), ...(tradeNo ? { tradeNo } : {}) };
    if (!(await moveWithdrawal(trx, cash.id, CashStatus.APPROVED, changes, { paying: tradeNo !== null }))) {
      return false;
    }
    await applyChange(trx, {
      userId: cash.userId,
      available: 0,
      frozen: -total,
      type: WalletChangeType.CASH_PAID,
      cashId: cash.id,
      desc: ledgerText(d, msg('withdrawals.withdrawalPaidOut')),
    });
    await announce(ctx, trx, cash, CashStatus.PAID, d.remark);
    return true;
  });
}

/** The provider did not settle the payout: it stays approved for an administrator, and its member is told so. */
async function stayApproved(ctx: AppContext, cash: WalletCash, d: Decision): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await markPayoutSettled(trx, cash.id);
    await announce(ctx, trx, cash, CashStatus.APPROVED, d.remark);
  });
}

/**
 * Approve: without a payout provider the withdrawal waits (status 2) for an administrator to pay it by hand. With
 * one, the withdrawal is claimed (status 2, marked as being paid out, so nobody can reject or mark it paid while the
 * provider works), the provider is called outside any transaction, and its answer settles it: 5 paid or 6 failed
 * (the money goes back). A provider that throws leaves an approved withdrawal for an administrator to settle.
 */
async function approve(ctx: AppContext, cash: WalletCash, d: Decision): Promise<Outcome> {
  const provider = d.rules.payoutProvider;
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    const moved = await moveWithdrawal(trx, cash.id, CashStatus.PENDING, {
      status: CashStatus.APPROVED,
      ...stamp(d, d.remark),
      ...(provider ? { tradeNo: PAYING } : {}),
    });
    // Without a provider it waits, approved, for a payout by hand; with one, the payout's outcome is the step told.
    if (moved && !provider) await announce(ctx, trx, cash, CashStatus.APPROVED, d.remark);
    return moved;
  });
  if (!claimed) return refused('status');
  if (!provider) return done;

  let answer: Awaited<ReturnType<typeof payoutThrough>>;
  try {
    answer = await payoutThrough(ctx, provider, {
      cashSn: cash.cashSn,
      amountCents: Number(cash.applyCents),
      account: cash.receiveAccount,
      remark: d.remark,
    });
  } catch (err) {
    ctx.log.error({ err, cashId: cash.id, provider }, 'a payout could not be made');
    await stayApproved(ctx, cash, d);
    return refused('payout', msg('withdrawals.payoutProviderDidNot'));
  }
  if (answer.ok) {
    return (await payOut(ctx, cash, d, answer.tradeNo ?? `${provider}:${cash.cashSn}`)) ? done : refused('status');
  }
  if (answer.pending) {
    // The money may have moved: never return it. It stays approved until someone checks with the provider.
    ctx.log.warn({ cashId: cash.id, provider, reason: answer.reason }, 'a payout is pending');
    await stayApproved(ctx, cash, d);
    return refused('payout', msg('withdrawals.payoutProviderNotConfirmed'));
  }
  const reason = answer.reason?.trim() || localize(FAILURE_TEXT.payout, d.rules.locale);
  const remark = d.remark ? `${d.remark} (${reason})` : reason;
  const failed = await thaw(ctx, cash, CashStatus.APPROVED, CashStatus.PAYOUT_FAILED, d, remark, true);
  return failed ? refused('payout', msg('withdrawals.payoutFailed2', { reason })) : refused('status');
}
