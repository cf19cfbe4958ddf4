import {
  Code,
  formatMoney,
  parseMoney,
  WalletStatus,
  type Page,
  type WalletInfo,
  type WalletLogItem,
  type WalletLogQuery,
  type SmsResetPayPasswordBody,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import { AppError, fieldError, invalidField } from '../../core/errors.js';
import { inMs, now } from '../../core/time.js';
import type { DB, User } from '../../db/schema.js';
import {
  checkOwnPassword,
  hashPassword,
  isLegacyHash,
  upgradeLegacyPassword,
  verifyPassword,
  type PasswordThrottle,
} from '../users/index.js';
import { readSiteSettings } from '../settings/index.js';
import { ensureWallet, readBalances } from './ledger.js';
import {
  countPayTry,
  listWalletLogRows,
  lockPay,
  readWalletRow,
  setPayPasswordHash,
  upgradePayPasswordHash,
} from './wallet.repository.js';
import { msg } from '../../i18n/index.js';
import type { AppContext } from '../../context.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { useOwnNumberCode } from '../sms/index.js';

/** Wrong pay passwords in a row before paying from the wallet locks, and for how long. */
export const PAY_PASSWORD_TRIES = 5;
export const PAY_LOCK_MS = 10 * 60 * 1000;

const money = (setting: unknown, fallback: number) => parseMoney(String(setting ?? '')) ?? fallback;

export async function readWalletInfo(db: Kysely<DB>, user: User): Promise<WalletInfo> {
  const [balances, wallet, site] = await Promise.all([
    readBalances(db, user.id),
    readWalletRow(db, user.id),
    readSiteSettings(db),
  ]);
  const locked = wallet?.payLockedUntil && wallet.payLockedUntil > now() ? wallet.payLockedUntil : null;
  return {
    userId: user.id,
    availableAmount: formatMoney(balances.availableCents),
    freezeAmount: formatMoney(balances.frozenCents),
    walletStatus: balances.status,
    hasPayPassword: Boolean(wallet?.payPasswordHash),
    payLockedUntil: locked,
    cash: {
      minAmount: formatMoney(money(site.cashMinSum, 100)),
      maxAmount: formatMoney(money(site.cashMaxSum, 500_000)),
      dailyCount: Number(site.cashSumLimit) || 0,
      feeRate: formatMoney(money(site.cashRate, 0)),
    },
  };
}

/** Reads an ISO time or a date (2026-11-22) from a filter; undefined when empty, -4001 when it is not one. */
export function filterTime(value: string | undefined, field: string, endOfDay = false): string | undefined {
  if (!value) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (!Number.isFinite(ms)) {
    throw invalidField(field, msg('wallet.notValidTime', { field }));
  }
  return new Date(dateOnly && endOfDay ? ms + 86_400_000 - 1 : ms).toISOString();
}

export async function listWalletLog(
  db: Kysely<DB>,
  userId: number,
  query: WalletLogQuery,
): Promise<Page<WalletLogItem>> {
  const { page, perPage, filter } = query;
  const types = filter.changeType ? filter.changeType.split(',').map(Number) : [];
  const start = filterTime(filter.startTime, 'filter[startTime]');
  const end = filterTime(filter.endTime, 'filter[endTime]', true);
  const { count, rows } = await listWalletLogRows(db, userId, { types, start, end, page, perPage });
  const totalCount = Number(count);
  return {
    pageData: rows.map((r) => ({
      id: r.id,
      changeAvailableAmount: formatMoney(Number(r.changeAvailableCents)),
      changeFreezeAmount: formatMoney(Number(r.changeFrozenCents)),
      availableAmount: formatMoney(Number(r.availableAfterCents)),
      freezeAmount: formatMoney(Number(r.frozenAfterCents)),
      changeType: r.changeType,
      changeDesc: r.changeDesc,
      orderSn: r.orderSn ?? null,
      cashSn: r.cashSn ?? null,
      createdAt: r.createdAt,
    })),
    currentPage: page,
    perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / perPage),
  };
}

/**
 * Sets or changes the pay password; the login password confirms it, counted as a sign-in attempt (checkOwnPassword).
 * Clears a lock and the wrong-try count.
 */
export async function setPayPassword(
  db: Kysely<DB>,
  throttle: PasswordThrottle,
  user: User,
  body: { password: string; payPassword: string },
): Promise<void> {
  if (!(await checkOwnPassword(throttle, user, body.password))) {
    throw fieldError(Code.INVALID_PARAMETER, 'password', msg('wallet.loginPasswordNotCorrect'));
  }
  // An imported account's bcrypt login hash becomes ours once its password is proven, as at sign-in.
  await upgradeLegacyPassword(db, user, body.password);
  await ensureWallet(db, user.id);
  await setPayPasswordHash(db, user.id, await hashPassword(body.payPassword));
}

/**
 * sms.reset.pay.pwd: a reset_pay_pwd code sent to the member's own number sets a new pay password (the login password
 * is not asked: this is for who forgot it). Clears a lock and the wrong-try count, as a set does.
 */
export async function resetPayPasswordBySms(
  ctx: Pick<AppContext, 'db' | 'config' | 'limits' | 'log'>,
  viewer: ViewerContext,
  body: SmsResetPayPasswordBody,
): Promise<void> {
  const user = requireUser(viewer);
  await useOwnNumberCode(ctx, viewer, 'reset_pay_pwd', body.mobile, body.code);
  await ensureWallet(ctx.db, user.id);
  await setPayPasswordHash(ctx.db, user.id, await hashPassword(body.payPassword));
}

/**
 * Checks the pay password before money leaves a wallet (a payment, a withdrawal). Five wrong ones in a row lock it for
 * ten minutes; a right one clears the count. The outcome of a try is decided in one conditional statement that also
 * decides whether a try was left: a wrong one is counted only while fewer than five are, a right one is accepted only
 * while the wallet is not locked. So of thirty concurrent tries, at most five get an answer that says anything about
 * the password; every other one is refused as locked, right or wrong.
 */
export async function checkPayPassword(db: Kysely<DB>, userId: number, given: string | undefined): Promise<void> {
  const wallet = await readWalletRow(db, userId);
  if (!wallet?.payPasswordHash) {
    throw invalidField('payPassword', msg('wallet.setPayPasswordFirst'));
  }
  if (wallet.status === WalletStatus.FROZEN) {
    throw new AppError(Code.PAYMENT_FAILED, msg('wallet.walletFrozen2'), { data: { reason: 'frozen' } });
  }
  if (wallet.payLockedUntil && wallet.payLockedUntil > now()) throw payLocked(wallet.payLockedUntil);
  if (!given) {
    throw invalidField('payPassword', msg('wallet.enterPayPassword'));
  }
  const right = /^\d{6}$/.test(given) && (await verifyPassword(wallet.payPasswordHash, given));
  const at = now();
  const counted = await countPayTry(db, userId, right, PAY_PASSWORD_TRIES, at);
  if (counted === undefined) throw payLocked(await lockedUntilNow(db, userId, at));
  if (right) {
    // An imported bcrypt pay password (Discuz! Q's users.pay_password) becomes ours on its first right use.
    if (isLegacyHash(wallet.payPasswordHash)) {
      await upgradePayPasswordHash(db, userId, wallet.payPasswordHash, await hashPassword(given));
    }
    return;
  }
  if (counted >= PAY_PASSWORD_TRIES) {
    const until = inMs(PAY_LOCK_MS);
    await lockPay(db, userId, until);
    throw payLocked(until, true);
  }
  const left = PAY_PASSWORD_TRIES - counted;
  throw new AppError(
    Code.PAYMENT_FAILED,
    msg('wallet.wrongPayPasswordLeft', { left, value: left === 1 ? 'try' : 'tries' }),
    { data: { field: 'payPassword', reason: 'payPassword', triesLeft: left } },
  );
}

/** The lock that refused a try: the one stored, or (the fifth wrong try still being written) one from now. */
async function lockedUntilNow(db: Kysely<DB>, userId: number, at: string): Promise<string> {
  const row = await readWalletRow(db, userId);
  return row?.payLockedUntil && row.payLockedUntil > at ? row.payLockedUntil : inMs(PAY_LOCK_MS);
}

/** Locked: `checked` when this very try was a wrong password (the fifth), else it was refused unchecked. */
function payLocked(until: string, checked = false): AppError {
  const minutes = Math.max(1, Math.ceil((Date.parse(until) - Date.now()) / 60_000));
  return new AppError(
    Code.TOO_MANY_REQUESTS,
    msg('wallet.tooManyWrongPay', { minutes, value: minutes === 1 ? 'minute' : 'minutes' }),
    { data: { field: 'payPassword', reason: checked ? 'payPassword' : 'locked', triesLeft: 0, lockedUntil: until } },
  );
}
