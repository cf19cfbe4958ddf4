import {
  CashStatus,
  OrderStatus,
  OrderType,
  PayType,
  WalletChangeType,
  formatMoney,
  parseMoney,
  parsePercent,
  type CashStatusValue,
  type OrderStatusValue,
  type OrderTypeValue,
  type WalletChangeTypeValue,
} from '@luntan/shared';
import type { TFunction } from 'i18next';

/*
 * The words for the money numbers (docs/money.md) and the page's integer-cent arithmetic. An unknown number (a later
 * server's) still reads as "other (N)", never as a missing key.
 */

const has = <T extends number>(values: Record<string, T>, value: number): value is T =>
  (Object.values(values) as number[]).includes(value);

export function changeTypeLabel(t: TFunction, type: number): string {
  return has<WalletChangeTypeValue>(WalletChangeType, type)
    ? t(`money.changeType.${type}`)
    : t('money.changeType.other', { type });
}

export function orderTypeLabel(t: TFunction, type: number): string {
  return has<OrderTypeValue>(OrderType, type) ? t(`money.orderType.${type}`) : t('money.orderType.other', { type });
}

export function orderStatusLabel(t: TFunction, status: number): string {
  return has<OrderStatusValue>(OrderStatus, status)
    ? t(`money.orderStatus.${status}`)
    : t('money.orderStatus.other', { status });
}

export function cashStatusLabel(t: TFunction, status: number): string {
  return has<CashStatusValue>(CashStatus, status)
    ? t(`money.cashStatus.${status}`)
    : t('money.cashStatus.other', { status });
}

/** A provider's or the wallet's name: both WeChat types read WeChat Pay, both Alipay types Alipay. */
export function payTypeLabel(t: TFunction, type: number): string {
  switch (type) {
    case PayType.WXPAY_NATIVE:
    case PayType.WXPAY_H5:
      return t('money.payType.wxpay');
    case PayType.ALIPAY_PAGE:
    case PayType.ALIPAY_WAP:
      return t('money.payType.alipay');
    case PayType.SANDBOX:
      return t('money.payType.sandbox');
    case PayType.WALLET:
      return t('money.payType.wallet');
    default:
      return t('money.payType.other', { type });
  }
}

/** The ledger's change types in the filter's order (withdrawals, money in, money out). */
export const CHANGE_TYPES: readonly WalletChangeTypeValue[] = Object.values(WalletChangeType);

/**
 * A withdrawal's fee in cents, as the server charges it (docs/money.md): ⌈amount × rate⌉, `rate` the site's percent
 * text ("0.60" is 0.6%). Integer arithmetic only (basis points).
 */
export function withdrawalFeeCents(amountCents: number, rate: string): number {
  const basisPoints = parsePercent(rate) ?? 0;
  return Math.floor((amountCents * basisPoints + 9_999) / 10_000);
}

export type AmountCheck =
  | { ok: true; cents: number }
  | { ok: false; problem: 'format' }
  | { ok: false; problem: 'min'; limit: string }
  | { ok: false; problem: 'max'; limit: string };

/** An amount typed by the reader, against the site's limits ("1.00", "5000.00"); an empty or zero amount is not one. */
export function checkAmount(typed: string, min: string, max: string): AmountCheck {
  const cents = parseMoney(typed);
  if (cents === null || cents <= 0) return { ok: false, problem: 'format' };
  const minCents = parseMoney(min);
  const maxCents = parseMoney(max);
  if (minCents !== null && cents < minCents) return { ok: false, problem: 'min', limit: formatMoney(minCents) };
  if (maxCents !== null && maxCents > 0 && cents > maxCents) {
    return { ok: false, problem: 'max', limit: formatMoney(maxCents) };
  }
  return { ok: true, cents };
}

/** Keeps what an amount field may hold while typing: digits and one dot, at most two decimals. */
export function keepAmountCharacters(raw: string): string {
  const cleaned = raw.replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  if (dot < 0) return cleaned;
  return `${cleaned.slice(0, dot)}.${cleaned
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 2)}`;
}

/** The page's money text: ¥12.50 (the API's two-decimal string, or cents). */
export function moneyText(t: TFunction, amount: string | number): string {
  return t('money.amount', { amount: typeof amount === 'number' ? formatMoney(amount) : amount });
}

/**
 * Where to go after paying: a same-site path (one leading '/', not '//' nor '/\'), else the fallback. Guards the
 * sandbox checkout's `return` parameter against sending the payer to another site.
 */
export function safeReturnPath(value: string | null | undefined, fallback = '/wallet'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters and backslashes have no place in our paths (browsers read '\' as '/', drop tabs, newlines).
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\') return fallback;
  }
  return value;
}
