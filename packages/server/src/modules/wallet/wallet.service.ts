import { verify } from '@node-rs/argon2';
import {
  Code,
  formatMoney,
  parseMoney,
  WalletStatus,
  type Page,
  type WalletInfo,
  type WalletLogItem,
  type WalletLogQuery,
} from '@luntan/shared';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { AppError, fieldError, invalidField } from '../../core/errors.js';
import { inMs, now } from '../../core/time.js';
import type { DB, User } from '../../db/schema.js';
import { hashPassword } from '../auth/passwords.js';
import { readSiteSettings } from '../settings/settings.service.js';
import { ensureWallet, readBalances } from './ledger.js';

/** Wrong pay passwords in a row before paying from the wallet locks, and for how long. */
export const PAY_PASSWORD_TRIES = 5;
export const PAY_LOCK_MS = 10 * 60 * 1000;

const money = (setting: unknown, fallback: number) => parseMoney(String(setting ?? '')) ?? fallback;

export async function readWalletInfo(db: Kysely<DB>, user: User): Promise<WalletInfo> {
  const [balances, wallet, site] = await Promise.all([
    readBalances(db, user.id),
    db
      .selectFrom('wallets')
      .select(['payPasswordHash', 'payLockedUntil'])
      .where('userId', '=', user.id)
      .executeTakeFirst(),
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
    throw invalidField(field, { zh: `${field} 不是有效的时间`, en: `${field} is not a valid time` });
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
  let base = db.selectFrom('walletLogs as l').where('l.userId', '=', userId);
  if (types.length > 0) base = base.where('l.changeType', 'in', types);
  if (start) base = base.where('l.createdAt', '>=', start);
  if (end) base = base.where('l.createdAt', '<=', end);
  const [{ count }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    base
      .leftJoin('orders as o', 'o.id', 'l.orderId')
      .leftJoin('walletCash as c', 'c.id', 'l.cashId')
      .select([
        'l.id',
        'l.changeAvailableCents',
        'l.changeFrozenCents',
        'l.availableAfterCents',
        'l.frozenAfterCents',
        'l.changeType',
        'l.changeDesc',
        'l.createdAt',
        'o.orderSn',
        'c.cashSn',
      ])
      .orderBy('l.id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
  ]);
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

/** Sets or changes the pay password; the login password confirms it. Clears a lock and the wrong-try count. */
export async function setPayPassword(
  db: Kysely<DB>,
  user: User,
  body: { password: string; payPassword: string },
): Promise<void> {
  if (!(await verify(user.passwordHash, body.password).catch(() => false))) {
    throw fieldError(Code.INVALID_PARAMETER, 'password', {
      zh: '登录密码不正确',
      en: 'The login password is not correct',
    });
  }
  await ensureWallet(db, user.id);
  await db
    .updateTable('wallets')
    .set({
      payPasswordHash: await hashPassword(body.payPassword),
      payFailures: 0,
      payLockedUntil: null,
      updatedAt: now(),
    })
    .where('userId', '=', user.id)
    .execute();
}

/**
 * Checks the pay password before money leaves a wallet (a payment, a withdrawal). Five wrong ones in a row lock it for
 * ten minutes; a right one clears the count. The outcome of a try is decided in one conditional statement that also
 * decides whether a try was left: a wrong one is counted only while fewer than five are, a right one is accepted only
 * while the wallet is not locked. So of thirty concurrent tries, at most five get an answer that says anything about
 * the password; every other one is refused as locked, right or wrong.
 */
export async function checkPayPassword(db: Kysely<DB>, userId: number, given: string | undefined): Promise<void> {
  const wallet = await db
    .selectFrom('wallets')
    .select(['payPasswordHash', 'payLockedUntil', 'status'])
    .where('userId', '=', userId)
    .executeTakeFirst();
  if (!wallet?.payPasswordHash) {
    throw invalidField('payPassword', {
      zh: '请先设置支付密码',
      en: 'Set a pay password first',
    });
  }
  if (wallet.status === WalletStatus.FROZEN) {
    throw new AppError(
      Code.PAYMENT_FAILED,
      { zh: '钱包已被冻结', en: 'This wallet is frozen' },
      { data: { reason: 'frozen' } },
    );
  }
  if (wallet.payLockedUntil && wallet.payLockedUntil > now()) throw payLocked(wallet.payLockedUntil);
  if (!given) {
    throw invalidField('payPassword', { zh: '请输入支付密码', en: 'Enter your pay password' });
  }
  const right = /^\d{6}$/.test(given) && (await verify(wallet.payPasswordHash, given).catch(() => false));
  const at = now();
  const open = (eb: ExpressionBuilder<DB, 'wallets'>) =>
    eb.and([
      eb('payFailures', '<', PAY_PASSWORD_TRIES),
      eb.or([eb('payLockedUntil', 'is', null), eb('payLockedUntil', '<=', at)]),
    ]);
  const counted = await db
    .updateTable('wallets')
    .set(right ? { payFailures: 0 } : { payFailures: sql`pay_failures + 1` })
    .where('userId', '=', userId)
    .where(open)
    .returning('payFailures')
    .executeTakeFirst();
  if (!counted) throw payLocked(await lockedUntilNow(db, userId, at));
  if (right) return;
  if (counted.payFailures >= PAY_PASSWORD_TRIES) {
    const until = inMs(PAY_LOCK_MS);
    await db
      .updateTable('wallets')
      .set({ payFailures: 0, payLockedUntil: until })
      .where('userId', '=', userId)
      .execute();
    throw payLocked(until, true);
  }
  const left = PAY_PASSWORD_TRIES - counted.payFailures;
  throw new AppError(
    Code.PAYMENT_FAILED,
    {
      zh: `支付密码错误，还可以再试 ${left} 次`,
      en: `Wrong pay password: ${left} ${left === 1 ? 'try' : 'tries'} left`,
    },
    { data: { field: 'payPassword', reason: 'payPassword', triesLeft: left } },
  );
}

/** The lock that refused a try: the one stored, or (the fifth wrong try still being written) one from now. */
async function lockedUntilNow(db: Kysely<DB>, userId: number, at: string): Promise<string> {
  const row = await db.selectFrom('wallets').select('payLockedUntil').where('userId', '=', userId).executeTakeFirst();
  return row?.payLockedUntil && row.payLockedUntil > at ? row.payLockedUntil : inMs(PAY_LOCK_MS);
}

/** Locked: `checked` when this very try was a wrong password (the fifth), else it was refused unchecked. */
function payLocked(until: string, checked = false): AppError {
  const minutes = Math.max(1, Math.ceil((Date.parse(until) - Date.now()) / 60_000));
  return new AppError(
    Code.TOO_MANY_REQUESTS,
    {
      zh: `支付密码错误次数过多，请 ${minutes} 分钟后再试`,
      en: `Too many wrong pay passwords: try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
    },
    { data: { field: 'payPassword', reason: checked ? 'payPassword' : 'locked', triesLeft: 0, lockedUntil: until } },
  );
}
