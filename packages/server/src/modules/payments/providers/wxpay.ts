/**
 * WeChat Pay API v3 in "WeChat Pay public key" mode. Tencent publishes no official Node.js SDK (only Java, Go and
 * PHP), and the community packages pull in platform-certificate downloading we do not need; the protocol is small:
 * RSA-SHA256 signatures both ways and AES-256-GCM for callback payloads, all in node:crypto, over global fetch.
 */
import {
  constants,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  publicEncrypt,
  randomBytes,
} from 'node:crypto';
import { toChinaRfc3339 } from './china-time.js';
import {
  InvalidCallbackError,
  PaymentType,
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

export interface WxpayConfig {
  mchId: string;
  appId: string;
  /** The API v3 key: 32 characters, used as the AES-256 key for callback payloads. */
  apiV3Key: string;
  /** Serial number of the merchant API certificate whose private key signs our requests. */
  merchantSerialNo: string;
  merchantPrivateKey: string;
  /** The "WeChat Pay public key" (PEM) that checks WeChat's answers and callbacks. */
  platformPublicKey: string;
  /** Its id (PUB_KEY_ID_...): when set, answers signed with another key are refused, and it is sent as Wechatpay-Serial. */
  platformPublicKeyId?: string;
  baseUrl?: string;
}

/** Names of the required settings that are empty, for the settings page. */
export function missingWxpayConfig(config: Partial<WxpayConfig>): string[] {
  const required = [
    'mchId',
    'appId',
    'apiV3Key',
    'merchantSerialNo',
    'merchantPrivateKey',
    'platformPublicKey',
  ] as const;
  return required.filter((name) => !config[name]?.trim());
}

/** A call to WeChat Pay that did not come back as a verified success. */
export class WxpayRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WxpayRequestError';
  }
}

const DEFAULT_BASE_URL = 'https://api.mch.weixin.qq.com';
/** Answers and callbacks stamped further than this from our clock are refused (replays). */
const MAX_CLOCK_SKEW_SECONDS = 300;
const REQUEST_TIMEOUT_MS = 10_000;
const GCM_TAG_BYTES = 16;

type HeaderReader = (name: string) => string | undefined;

function readHeaders(headers: CallbackInput['headers']): HeaderReader {
  const lower = new Map(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  return (name) => {
    const value = lower.get(name.toLowerCase());
    return Array.isArray(value) ? value[0] : value;
  };
}

/** WeChat's text limits count characters; slicing by code point keeps a surrogate pair whole. */
function clip(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** AEAD_AES_256_GCM as WeChat uses it: base64 ciphertext whose last 16 bytes are the tag. */
function decryptResource(
  apiV3Key: string,
  resource: { ciphertext: string; nonce: string; associated_data?: string },
): string {
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length <= GCM_TAG_BYTES) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - GCM_TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - GCM_TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

export function createWxpayProvider(config: WxpayConfig): PaymentProvider {
  if (Buffer.byteLength(config.apiV3Key, 'utf8') !== 32) throw new TypeError('apiV3Key must be 32 bytes');
  const merchantKey = createPrivateKey(config.merchantPrivateKey);
  const platformKey = createPublicKey(config.platformPublicKey);
  const baseUrl = config.baseUrl ?? DEFAULT_BASE_URL;

  /** Why a signed message (an answer or a callback) is not WeChat's, or null when it is. */
  function signatureProblem(header: HeaderReader, body: string): string | null {
    const timestamp = header('Wechatpay-Timestamp');
    const nonce = header('Wechatpay-Nonce');
    const signature = header('Wechatpay-Signature');
    const serial = header('Wechatpay-Serial');
    if (!timestamp || !nonce || !signature || !serial) return 'signature headers missing';
    if (config.platformPublicKeyId && serial !== config.platformPublicKeyId) {
      return `signed with another key (${serial})`;
    }
    const seconds = Number(timestamp);
    if (!Number.isInteger(seconds) || Math.abs(Date.now() / 1000 - seconds) > MAX_CLOCK_SKEW_SECONDS) {
      return 'timestamp too far from now';
    }
    const verified = createVerify('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8')
      .verify(platformKey, signature, 'base64');
    return verified ? null : 'signature does not verify';
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    const url = new URL(path, baseUrl);
    const text = body === undefined ? '' : JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const signature = createSign('RSA-SHA256')
      .update(`${method}\n${url.pathname}${url.search}\n${timestamp}\n${nonce}\n${text}\n`, 'utf8')
      .sign(merchantKey, 'base64');
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': 'luntan-server',
      Authorization:
        `WECHATPAY2-SHA256-RSA2048 mchid="${config.mchId}",nonce_str="${nonce}",signature="${signature}",` +
        `timestamp="${timestamp}",serial_no="${config.merchantSerialNo}"`,
    };
    if (text) headers['Content-Type'] = 'application/json';
    if (config.platformPublicKeyId) headers['Wechatpay-Serial'] = config.platformPublicKeyId;

    let response: Response;
    let raw: string;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: text || undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      raw = await response.text();
    } catch (error) {
      throw new WxpayRequestError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    let data: unknown = {};
    try {
      if (raw) data = JSON.parse(raw);
    } catch {
      throw new WxpayRequestError(`answer is not JSON (HTTP ${response.status})`, response.status);
    }
    if (!response.ok) {
      // A refusal is not trusted for anything but "not done", so it is read without checking its signature.
      const code = isRecord(data) && typeof data.code === 'string' ? data.code : `HTTP_${response.status}`;
      const message = isRecord(data) && typeof data.message === 'string' ? data.message : '';
      throw new WxpayRequestError(message ? `${code}: ${message}` : code, response.status, code);
    }
    const problem = signatureProblem((name) => response.headers.get(name) ?? undefined, raw);
    if (problem) throw new WxpayRequestError(`answer refused: ${problem}`, response.status);
    if (!isRecord(data)) throw new WxpayRequestError('answer is not an object', response.status);
    return data;
  }

  /** refund and payout answer a reason instead of throwing when WeChat refuses or cannot be reached. */
  async function attempt<T>(run: () => Promise<T>): Promise<T | { ok: false; reason: string }> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof WxpayRequestError) return { ok: false, reason: error.message };
      throw error;
    }
  }

  return {
    name: 'wxpay',
    paymentTypes: [PaymentType.WXPAY_NATIVE, PaymentType.WXPAY_H5],

    async createPayment(request: PaymentRequest): Promise<PaymentStart> {
      const native = request.paymentType === PaymentType.WXPAY_NATIVE;
      if (!native && request.paymentType !== PaymentType.WXPAY_H5) {
        throw new TypeError(`WeChat Pay does not handle payment type ${request.paymentType}`);
      }
      const body: Record<string, unknown> = {
        appid: config.appId,
        mchid: config.mchId,
        description: clip(request.subject, 127),
        out_trade_no: request.orderSn,
        time_expire: toChinaRfc3339(request.expiresAt),
        notify_url: request.notifyUrl,
        amount: { total: request.amountCents, currency: 'CNY' },
      };
      if (native) {
        const answer = await call('POST', '/v3/pay/transactions/native', body);
        if (typeof answer.code_url !== 'string') throw new WxpayRequestError('answer has no code_url');
        return { kind: 'qrcode', codeUrl: answer.code_url };
      }
      body.scene_info = { payer_client_ip: request.clientIp, h5_info: { type: 'Wap' } };
      const answer = await call('POST', '/v3/pay/transactions/h5', body);
      if (typeof answer.h5_url !== 'string') throw new WxpayRequestError('answer has no h5_url');
      // The H5 cashier sends the payer back to redirect_url, which must be appended to h5_url by the merchant.
      return { kind: 'redirect', url: `${answer.h5_url}&redirect_url=${encodeURIComponent(request.returnUrl)}` };
    },

    async verifyCallback(input: CallbackInput): Promise<PaymentNotice> {
      const problem = signatureProblem(readHeaders(input.headers), input.rawBody);
      if (problem) throw new InvalidCallbackError(problem);
      let notice: unknown;
      try {
        notice = JSON.parse(input.rawBody);
      } catch {
        throw new InvalidCallbackError('body is not JSON');
      }
      if (!isRecord(notice) || !isRecord(notice.resource)) throw new InvalidCallbackError('no resource');
      const { event_type: eventType, resource } = notice;
      if (typeof eventType !== 'string' || !eventType.startsWith('TRANSACTION.')) {
        throw new InvalidCallbackError(`unexpected event_type ${String(eventType)}`);
      }
      const { algorithm, ciphertext, nonce, associated_data: associatedData } = resource;
      if (algorithm !== 'AEAD_AES_256_GCM' || typeof ciphertext !== 'string' || typeof nonce !== 'string') {
        throw new InvalidCallbackError('resource is not AEAD_AES_256_GCM');
      }
      let transaction: unknown;
      try {
        transaction = JSON.parse(
          decryptResource(config.apiV3Key, {
            ciphertext,
            nonce,
            associated_data: typeof associatedData === 'string' ? associatedData : '',
          }),
        );
      } catch {
        throw new InvalidCallbackError('resource does not decrypt');
      }
      if (!isRecord(transaction)) throw new InvalidCallbackError('resource is not an object');
      if (transaction.mchid !== config.mchId) throw new InvalidCallbackError('mchid is not ours');
      if (transaction.appid !== config.appId) throw new InvalidCallbackError('appid is not ours');
      const { out_trade_no: orderSn, transaction_id: tradeNo, trade_state: state } = transaction;
      const amountCents = isRecord(transaction.amount) ? transaction.amount.total : undefined;
      if (typeof orderSn !== 'string' || !orderSn) throw new InvalidCallbackError('out_trade_no missing');
      if (typeof tradeNo !== 'string' || !tradeNo) throw new InvalidCallbackError('transaction_id missing');
      if (typeof amountCents !== 'number' || !Number.isSafeInteger(amountCents) || amountCents < 0) {
        throw new InvalidCallbackError('amount.total is not an amount');
      }
      if (eventType === 'TRANSACTION.SUCCESS' && state === 'SUCCESS') {
        return { orderSn, tradeNo, amountCents, paid: true };
      }
      if (state === 'CLOSED' || state === 'PAYERROR') return { orderSn, tradeNo, amountCents, paid: false };
      throw new InvalidCallbackError(`unexpected trade_state ${String(state)}`);
    },

    answer(ok: boolean): CallbackAnswer {
      if (ok) return { status: 204, contentType: 'text/plain; charset=utf-8', body: '' };
      return {
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'FAIL', message: 'callback not accepted' }),
      };
    },

    async refund(refund: RefundRequest): Promise<{ ok: boolean; reason?: string }> {
      return attempt(async () => {
        const answer = await call('POST', '/v3/refund/domestic/refunds', {
          out_trade_no: refund.orderSn,
          out_refund_no: refund.refundSn,
          reason: clip(refund.reason, 80),
          amount: { refund: refund.amountCents, total: refund.totalCents, currency: 'CNY' },
        });
        // Refunds complete later; PROCESSING is WeChat's normal "accepted".
        if (answer.status === 'SUCCESS' || answer.status === 'PROCESSING') return { ok: true };
        return { ok: false, reason: `refund status ${String(answer.status)}` };
      });
    },

    async payout(payout: PayoutRequest): Promise<PayoutResult> {
      return attempt(async () => {
        const remark = clip(payout.remark, 32);
        const detail: Record<string, unknown> = {
          out_detail_no: payout.cashSn,
          transfer_amount: payout.amountCents,
          transfer_remark: remark,
          openid: payout.account,
        };
        // The payee's name travels encrypted with WeChat's public key (RSA-OAEP), named by Wechatpay-Serial.
        if (payout.realName) {
          detail.user_name = publicEncrypt(
            { key: platformKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
            Buffer.from(payout.realName, 'utf8'),
          ).toString('base64');
        }
        const answer = await call('POST', '/v3/transfer/batches', {
          appid: config.appId,
          out_batch_no: payout.cashSn,
          batch_name: remark,
          batch_remark: remark,
          total_amount: payout.amountCents,
          total_num: 1,
          transfer_detail_list: [detail],
        });
        if (typeof answer.batch_id !== 'string') return { ok: false, reason: 'answer has no batch_id' };
        return { ok: true, tradeNo: answer.batch_id };
      });
    },
  };
}
