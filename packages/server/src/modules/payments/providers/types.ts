/**
 * One interface for every way money comes in or goes out through a third party: the sandbox (development and
 * tests), Alipay and WeChat Pay API v3. Providers know nothing of our tables: they start a payment for an order,
 * check a callback's signature and say what it reports, refund, and pay out. The payments service (payments.service.ts)
 * applies what a verified callback reports, once, in a transaction (a callback delivered ten times credits once).
 * Amounts are integer cents everywhere; providers convert to their own format (Alipay "12.50", WeChat fen).
 */

/**
 * The family's payment types (10 WeChat native QR, 11 WeChat H5, 20 wallet, 30 Alipay page, 31 Alipay wap, 90 sandbox):
 * the shared codes the pages use too, under the name the payment modules know them by.
 */
import { PayType, type PayTypeValue } from '@luntan/shared';

export const PaymentType = PayType;
export type PaymentTypeValue = PayTypeValue;

export type ProviderName = 'sandbox' | 'alipay' | 'wxpay';

export interface PaymentRequest {
  orderSn: string;
  amountCents: number;
  /** What the payer sees on the provider's page ("Recharge 12.50", a thread's title); at most 127 characters. */
  subject: string;
  paymentType: PaymentTypeValue;
  /** The payer's address (WeChat H5 needs it). */
  clientIp: string;
  /** Absolute URL the provider calls back (POST) when the payment's state changes. */
  notifyUrl: string;
  /** Absolute URL the payer's browser returns to after paying (Alipay, WeChat H5 redirect_url). */
  returnUrl: string;
  /** When the payment must be done by (ISO time): the order's expiry. */
  expiresAt: string;
}

/** What the page needs to continue: open a URL (Alipay, WeChat H5, the sandbox's checkout) or show a QR code of a text. */
export type PaymentStart = { kind: 'redirect'; url: string } | { kind: 'qrcode'; codeUrl: string };

/** The raw callback as it arrived; the signature is over the exact bytes, so the body is kept raw. */
export interface CallbackInput {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** What a callback whose signature was verified reports. */
export interface PaymentNotice {
  orderSn: string;
  /** The provider's own transaction number. */
  tradeNo: string;
  amountCents: number;
  /** true: the payment succeeded; false: it failed or closed (the order is marked failed, nothing moves). */
  paid: boolean;
}

/** The HTTP answer a provider expects from our callback endpoint. */
export interface CallbackAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface PayoutRequest {
  /** Our withdrawal's number; providers use it as their idempotency key (a retried payout pays once). */
  cashSn: string;
  amountCents: number;
  /** Where the money goes: an Alipay login id, or a WeChat openid. */
  account: string;
  /** The payee's real name, when the provider wants it checked. */
  realName?: string;
  remark: string;
}

export interface PayoutResult {
  /** true: paid; false: refused (reason says why, in the provider's words) or, with `pending`, not known yet. */
  ok: boolean;
  /**
   * The outcome is not known (no verified answer, a timeout, a transfer still being processed): the money may have
   * moved, so it must not be returned to the member; retry with the same cashSn (providers treat it as a repeat) or
   * confirm by hand.
   */
  pending?: boolean;
  tradeNo?: string;
  reason?: string;
}

export interface RefundRequest {
  orderSn: string;
  /** A unique number for this refund (idempotency). */
  refundSn: string;
  amountCents: number;
  totalCents: number;
  reason: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The payment types this provider handles. */
  readonly paymentTypes: readonly PaymentTypeValue[];
  createPayment(request: PaymentRequest): Promise<PaymentStart>;
  /**
   * Checks the callback's signature (and decrypts it where the provider encrypts); answers what it reports, or
   * throws `InvalidCallbackError` when the signature or the shape is wrong (the caller answers `answer(false)`).
   */
  verifyCallback(input: CallbackInput): Promise<PaymentNotice>;
  /** The body the provider expects back: Alipay `success`/`fail`; WeChat 200/204 or a 4xx JSON `{code, message}`. */
  answer(ok: boolean): CallbackAnswer;
  refund(request: RefundRequest): Promise<{ ok: boolean; reason?: string }>;
  payout(request: PayoutRequest): Promise<PayoutResult>;
}

export class InvalidCallbackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCallbackError';
  }
}

/** Cents to a two-decimal string without floating point: 1250 → "12.50". */
export function centsToYuan(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A provider's two-decimal amount ("12.5", "12.50", "12") to cents, exactly; null when it is not one. */
export function yuanToCents(text: string): number | null {
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
