/**
 * Alipay (OpenAPI 2.0 gateway, public-key mode) through the official SDK, alipay-sdk v4. The SDK signs requests,
 * checks answers and notifications; this file maps our provider interface onto its calls.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as AlipayModule from 'alipay-sdk';
import type { AlipaySdkCommonResult } from 'alipay-sdk';
import { toChinaDateTime } from './china-time.js';
import {
  InvalidCallbackError,
  PaymentType,
  centsToYuan,
  yuanToCents,
  type CallbackAnswer,
  type CallbackInput,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type PayoutRequest,
  type PayoutResult,
  type RefundRequest,
} from './types.js';

export interface AlipayConfig {
  appId: string;
  /** The application's private key: PEM (PKCS#1 or PKCS#8), or the bare base64 Alipay's key tool prints. */
  privateKey: string;
  /** Alipay's public key (not the application's): PEM or bare base64. */
  alipayPublicKey: string;
  /** The OpenAPI gateway; the SDK's production gateway when absent (tests point it at a local server). */
  gateway?: string;
  signType: 'RSA2';
}

/** Names of the required settings that are empty, for the settings page. */
export function missingAlipayConfig(config: Partial<AlipayConfig>): string[] {
  const required = ['appId', 'privateKey', 'alipayPublicKey'] as const;
  return required.filter((name) => !config[name]?.trim());
}

function readKey(text: string, kind: 'private' | 'public'): KeyObject {
  const trimmed = text.trim();
  if (trimmed.includes('-----BEGIN')) {
    return kind === 'private' ? createPrivateKey(trimmed) : createPublicKey(trimmed);
  }
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64');
  if (kind === 'public') return createPublicKey({ key: der, format: 'der', type: 'spki' });
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  }
}

const SUCCESS_CODE = '10000';

function describeRefusal(result: AlipaySdkCommonResult): string {
  const code = String(result.sub_code ?? result.code ?? 'unknown');
  const message = String(result.sub_msg ?? result.msg ?? '');
  return message ? `${code}: ${message}` : code;
}

/** The SDK (16 MB in memory) is required when Alipay is first configured, not by every forum at start. */
const alipaySdk = (): typeof AlipayModule => createRequire(import.meta.url)('alipay-sdk') as typeof AlipayModule;

export function createAlipayProvider(config: AlipayConfig): PaymentProvider {
  const { AlipaySdk, AlipayRequestError } = alipaySdk();
  const { appId } = config;
  // The SDK decides a key's PEM header from keyType (PKCS#1 by default) and mangles a PKCS#8 key given without
  // keyType; normalising both keys through node:crypto validates them now and hands the SDK one known format.
  const sdk = new AlipaySdk({
    appId,
    privateKey: readKey(config.privateKey, 'private').export({ type: 'pkcs8', format: 'pem' }).toString(),
    keyType: 'PKCS8',
    alipayPublicKey: readKey(config.alipayPublicKey, 'public').export({ type: 'spki', format: 'pem' }).toString(),
    signType: config.signType,
    // An explicit `gateway: undefined` would replace the SDK's default (it merges with Object.assign).
    ...(config.gateway ? { gateway: config.gateway } : {}),
    // Keep the gateway's snake_case field names, as in Alipay's documentation.
    camelcase: false,
  });

  /**
   * The SDK stamps requests with the server's local time, while the gateway reads `timestamp` as Beijing time;
   * a parameter of the same name overrides the SDK's.
   */
  const timestamp = (): string => toChinaDateTime(new Date());

  /** Runs a gateway call; a refusal, an HTTP or network failure, or an answer that does not verify is a reason. */
  async function call(
    method: string,
    bizContent: Record<string, unknown>,
  ): Promise<{ ok: true; result: AlipaySdkCommonResult } | { ok: false; reason: string; uncertain?: true }> {
    try {
      // validateSign is off by default in the SDK: without it a forged answer would be believed.
      const result = await sdk.exec(method, { bizContent, timestamp: timestamp() }, { validateSign: true });
      if (result.code !== SUCCESS_CODE) return { ok: false, reason: describeRefusal(result) };
      return { ok: true, result };
    } catch (error) {
      // No verified answer: the request may or may not have been carried out.
      if (error instanceof AlipayRequestError) return { ok: false, reason: error.message, uncertain: true };
      // An answer without "sign" (the gateway's own error_response) fails inside node:crypto with a TypeError
      // rather than an AlipayRequestError; the request was built and sent, so whatever fails now is the answer's.
      return {
        ok: false,
        reason: `answer not verified: ${error instanceof Error ? error.message : String(error)}`,
        uncertain: true,
      };
    }
  }

  return {
    name: 'alipay',
    paymentTypes: [PaymentType.ALIPAY_PAGE, PaymentType.ALIPAY_WAP],

    async createPayment(request: PaymentRequest): Promise<PaymentStart> {
      const desktop = request.paymentType === PaymentType.ALIPAY_PAGE;
      if (!desktop && request.paymentType !== PaymentType.ALIPAY_WAP) {
        throw new TypeError(`Alipay does not handle payment type ${request.paymentType}`);
      }
      const bizContent: Record<string, string> = {
        out_trade_no: request.orderSn,
        total_amount: centsToYuan(request.amountCents),
        subject: request.subject,
        product_code: desktop ? 'FAST_INSTANT_TRADE_PAY' : 'QUICK_WAP_WAY',
        time_expire: toChinaDateTime(request.expiresAt),
      };
      // The mobile cashier's "back" button leaves to quit_url.
      if (!desktop) bizContent.quit_url = request.returnUrl;
      // With GET the SDK answers a signed gateway URL and makes no request.
      const url = sdk.pageExecute(desktop ? 'alipay.trade.page.pay' : 'alipay.trade.wap.pay', 'GET', {
        bizContent,
        notify_url: request.notifyUrl,
        return_url: request.returnUrl,
        timestamp: timestamp(),
      });
      return { kind: 'redirect', url };
    },

    async verifyCallback(input: CallbackInput): Promise<PaymentNotice> {
      const params: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(input.rawBody)) {
        if (key in params) throw new InvalidCallbackError(`parameter ${key} appears twice`);
        params[key] = value;
      }
      if (!params.sign) throw new InvalidCallbackError('no signature');
      // The SDK would pick the algorithm the notification names; only the one we configured is accepted.
      if (params.sign_type && params.sign_type !== config.signType) {
        throw new InvalidCallbackError(`unexpected sign_type ${params.sign_type}`);
      }
      let verified: boolean;
      try {
        // V2 signs the values as given: the body is already URL-decoded here, and checkNotifySign would decode
        // them a second time (a "%" in a subject breaks it).
        verified = sdk.checkNotifySignV2(params);
      } catch {
        verified = false;
      }
      if (!verified) throw new InvalidCallbackError('signature does not verify');
      if (params.app_id !== appId) throw new InvalidCallbackError('app_id is not ours');

      const { out_trade_no: orderSn, trade_no: tradeNo, trade_status: status } = params;
      if (!orderSn || !tradeNo) throw new InvalidCallbackError('out_trade_no or trade_no missing');
      const amountCents = yuanToCents(params.total_amount ?? '');
      if (amountCents === null) throw new InvalidCallbackError('total_amount is not an amount');
      // A full refund also closes a trade (TRADE_CLOSED after a success): the service applies a notice only to
      // an order still waiting, so a late "closed" does not undo a paid order.
      if (status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED')
        return { orderSn, tradeNo, amountCents, paid: true };
      if (status === 'TRADE_CLOSED') return { orderSn, tradeNo, amountCents, paid: false };
      throw new InvalidCallbackError(`unexpected trade_status ${status ?? '(none)'}`);
    },

    answer(ok: boolean): CallbackAnswer {
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' };
    },

    async refund(request: RefundRequest): Promise<{ ok: boolean; reason?: string }> {
      const outcome = await call('alipay.trade.refund', {
        out_trade_no: request.orderSn,
        out_request_no: request.refundSn,
        refund_amount: centsToYuan(request.amountCents),
        refund_reason: request.reason,
      });
      return outcome.ok ? { ok: true } : { ok: false, reason: outcome.reason };
    },

    async payout(request: PayoutRequest): Promise<PayoutResult> {
      const payeeInfo: Record<string, string> = { identity: request.account, identity_type: 'ALIPAY_LOGON_ID' };
      if (request.realName) payeeInfo.name = request.realName;
      const outcome = await call('alipay.fund.trans.uni.transfer', {
        out_biz_no: request.cashSn,
        trans_amount: centsToYuan(request.amountCents),
        product_code: 'TRANS_ACCOUNT_NO_PWD',
        biz_scene: 'DIRECT_TRANSFER',
        order_title: request.remark,
        remark: request.remark,
        payee_info: payeeInfo,
      });
      if (!outcome.ok) return { ok: false, reason: outcome.reason, ...(outcome.uncertain ? { pending: true } : {}) };
      const { status, order_id: orderId } = outcome.result;
      // To an Alipay account the transfer is synchronous; DEALING and the like have not paid yet, but may: pending
      // (the same cashSn retried is a repeat for Alipay, never a second payout).
      if (status !== 'SUCCESS') return { ok: false, pending: true, reason: `status ${String(status)}` };
      return { ok: true, tradeNo: String(orderId) };
    },
  };
}
