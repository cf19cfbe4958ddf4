import {
  constants,
  createCipheriv,
  createSign,
  createVerify,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn, type StandInAnswer, type StandInRequest } from '../../../test/stand-in-server.js';
import { InvalidCallbackError, PaymentType, type PaymentProvider, type PaymentRequest } from './types.js';
import { WxpayRequestError, createWxpayProvider, missingWxpayConfig, type WxpayConfig } from './wxpay.js';

const MCH_ID = '1900000109';
const APP_ID = 'wxd678efh567hg6787';
const API_V3_KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const MERCHANT_SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
const PLATFORM_KEY_ID = 'PUB_KEY_ID_0119000001092026112200000001';

const merchantKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const platformKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const strangerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: KeyObject) =>
  key.type === 'private'
    ? key.export({ type: 'pkcs8', format: 'pem' }).toString()
    : key.export({ type: 'spki', format: 'pem' }).toString();

function configFor(baseUrl: string, overrides: Partial<WxpayConfig> = {}): WxpayConfig {
  return {
    mchId: MCH_ID,
    appId: APP_ID,
    apiV3Key: API_V3_KEY,
    merchantSerialNo: MERCHANT_SERIAL,
    merchantPrivateKey: pem(merchantKeys.privateKey),
    platformPublicKey: pem(platformKeys.publicKey),
    platformPublicKeyId: PLATFORM_KEY_ID,
    baseUrl,
    ...overrides,
  };
}

/** WeChat's signature headers over a body: RSA-SHA256 of "timestamp\nnonce\nbody\n" with its private key. */
function wechatSignedHeaders(
  body: string,
  options: { key?: KeyObject; timestamp?: number; serial?: string } = {},
): Record<string, string> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8')
    .sign(options.key ?? platformKeys.privateKey, 'base64');
  return {
    'Wechatpay-Timestamp': timestamp,
    'Wechatpay-Nonce': nonce,
    'Wechatpay-Signature': signature,
    'Wechatpay-Serial': options.serial ?? PLATFORM_KEY_ID,
  };
}

/** Reads `WECHATPAY2-SHA256-RSA2048 k="v",...` and checks it as WeChat does, with the merchant's public key. */
function merchantSignatureHolds(request: StandInRequest): boolean {
  const header = request.headers.authorization ?? '';
  const scheme = 'WECHATPAY2-SHA256-RSA2048 ';
  if (!header.startsWith(scheme)) return false;
  const fields = Object.fromEntries(
    [...header.slice(scheme.length).matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]),
  );
  if (fields.mchid !== MCH_ID || fields.serial_no !== MERCHANT_SERIAL) return false;
  if (!fields.signature || !fields.timestamp || !fields.nonce_str) return false;
  const message = `${request.method}\n${request.url}\n${fields.timestamp}\n${fields.nonce_str}\n${request.body}\n`;
  return createVerify('RSA-SHA256').update(message, 'utf8').verify(merchantKeys.publicKey, fields.signature, 'base64');
}

describe('wxpay provider against a stand-in api.mch.weixin.qq.com', () => {
  let api: StandIn;
  let provider: PaymentProvider;
  /** What the stand-in answers next, per path; signWith replaces WeChat's key (a forged answer). */
  const next = new Map<string, { status: number; body: unknown; signWith?: KeyObject }>();

  function playWechat(request: StandInRequest): StandInAnswer {
    const json = (status: number, body: unknown, key?: KeyObject): StandInAnswer => {
      const text = JSON.stringify(body);
      return {
        status,
        body: text,
        headers: { 'Content-Type': 'application/json', ...wechatSignedHeaders(text, { key }) },
      };
    };
    if (!merchantSignatureHolds(request)) {
      return json(401, { code: 'SIGN_ERROR', message: 'signature does not verify' });
    }
    const planned = next.get(request.url);
    if (!planned) return json(404, { code: 'NOT_FOUND', message: request.url });
    return json(planned.status, planned.body, planned.signWith);
  }

  beforeAll(async () => {
    api = await startStandIn(playWechat);
    provider = createWxpayProvider(configFor(api.origin));
  });
  afterAll(() => api.close());
  beforeEach(() => next.clear());

  const lastBody = () => JSON.parse(api.requests.at(-1)?.body ?? '{}') as Record<string, unknown>;

  function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
    return {
      orderSn: '20261122000001',
      amountCents: 1250,
      subject: 'Recharge 12.50',
      paymentType: PaymentType.WXPAY_NATIVE,
      clientIp: '203.0.113.9',
      notifyUrl: 'https://forum.example/api/v3/payments/notify/wxpay',
      returnUrl: 'https://forum.example/pay/result?sn=20261122000001',
      expiresAt: '2026-11-22T12:30:00.000Z',
      ...overrides,
    };
  }

  it('starts a native payment: a QR code of code_url', async () => {
    next.set('/v3/pay/transactions/native', { status: 200, body: { code_url: 'weixin://wxpay/bizpayurl?pr=abc123' } });
    await expect(provider.createPayment(paymentRequest())).resolves.toEqual({
      kind: 'qrcode',
      codeUrl: 'weixin://wxpay/bizpayurl?pr=abc123',
    });
    const sent = api.requests.at(-1);
    expect(sent?.headers['wechatpay-serial']).toBe(PLATFORM_KEY_ID);
    expect(lastBody()).toEqual({
      appid: APP_ID,
      mchid: MCH_ID,
      description: 'Recharge 12.50',
      out_trade_no: '20261122000001',
      time_expire: '2026-11-22T20:30:00+08:00',
      notify_url: 'https://forum.example/api/v3/payments/notify/wxpay',
      amount: { total: 1250, currency: 'CNY' },
    });
  });

  it('starts an H5 payment: h5_url with our redirect_url', async () => {
    next.set('/v3/pay/transactions/h5', {
      status: 200,
      body: { h5_url: 'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016&package=1037687096' },
    });
    const start = await provider.createPayment(paymentRequest({ paymentType: PaymentType.WXPAY_H5 }));
    expect(start).toEqual({
      kind: 'redirect',
      url:
        'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016&package=1037687096' +
        '&redirect_url=https%3A%2F%2Fforum.example%2Fpay%2Fresult%3Fsn%3D20261122000001',
    });
    expect(lastBody()).toMatchObject({ scene_info: { payer_client_ip: '203.0.113.9', h5_info: { type: 'Wap' } } });
  });

  it('refuses an answer whose signature is forged', async () => {
    next.set('/v3/pay/transactions/native', {
      status: 200,
      body: { code_url: 'weixin://wxpay/bizpayurl?pr=evil' },
      signWith: strangerKeys.privateKey,
    });
    await expect(provider.createPayment(paymentRequest())).rejects.toThrow(WxpayRequestError);
  });

  it('is refused by WeChat when the request is signed with another merchant key', async () => {
    next.set('/v3/pay/transactions/native', { status: 200, body: { code_url: 'weixin://wxpay/bizpayurl?pr=abc' } });
    const impostor = createWxpayProvider(configFor(api.origin, { merchantPrivateKey: pem(strangerKeys.privateKey) }));
    await expect(impostor.createPayment(paymentRequest())).rejects.toThrow(/SIGN_ERROR/);
  });

  it('refuses a payment type that is not WeChat', async () => {
    await expect(provider.createPayment(paymentRequest({ paymentType: PaymentType.ALIPAY_PAGE }))).rejects.toThrow(
      TypeError,
    );
  });

  it('refunds (PROCESSING is accepted) and reports a refusal', async () => {
    next.set('/v3/refund/domestic/refunds', {
      status: 200,
      body: { refund_id: '50000000382019052709732678859', out_refund_no: 'R1', status: 'PROCESSING' },
    });
    const refund = { orderSn: '20261122000001', refundSn: 'R1', amountCents: 500, totalCents: 1250, reason: 'Sorry' };
    await expect(provider.refund(refund)).resolves.toEqual({ ok: true });
    expect(lastBody()).toEqual({
      out_trade_no: '20261122000001',
      out_refund_no: 'R1',
      reason: 'Sorry',
      amount: { refund: 500, total: 1250, currency: 'CNY' },
    });

    next.set('/v3/refund/domestic/refunds', {
      status: 403,
      body: { code: 'NOT_ENOUGH', message: 'insufficient balance' },
    });
    const refused = await provider.refund(refund);
    expect(refused.ok).toBe(false);
    expect(refused.reason).toContain('NOT_ENOUGH');
  });

  it('pays out one transfer in a batch, the name encrypted for WeChat', async () => {
    next.set('/v3/transfer/batches', {
      status: 200,
      body: {
        out_batch_no: 'C20261122000007',
        batch_id: '1030000071100999991182020050700019480001',
        create_time: '2026-11-22T20:05:00+08:00',
        batch_status: 'ACCEPTED',
      },
    });
    const result = await provider.payout({
      cashSn: 'C20261122000007',
      amountCents: 100,
      account: 'o-MYE42l80oelYMDE34nYD456Xoy',
      realName: '张三',
      remark: 'Withdrawal C20261122000007',
    });
    expect(result).toEqual({ ok: true, tradeNo: '1030000071100999991182020050700019480001' });
    const body = lastBody();
    expect(body).toMatchObject({
      appid: APP_ID,
      out_batch_no: 'C20261122000007',
      total_amount: 100,
      total_num: 1,
      transfer_detail_list: [
        {
          out_detail_no: 'C20261122000007',
          transfer_amount: 100,
          transfer_remark: 'Withdrawal C20261122000007',
          openid: 'o-MYE42l80oelYMDE34nYD456Xoy',
        },
      ],
    });
    const [detail] = body.transfer_detail_list as { user_name: string }[];
    const name = privateDecrypt(
      { key: platformKeys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from(detail!.user_name, 'base64'),
    ).toString('utf8');
    expect(name).toBe('张三');
  });

  const payout = () =>
    provider.payout({ cashSn: 'C2', amountCents: 100, account: 'o-nobody', remark: 'Withdrawal C2' });

  it('reports a refused payout, a forged acceptance and an unreachable API as reasons, without throwing', async () => {
    next.set('/v3/transfer/batches', { status: 403, body: { code: 'NO_AUTH', message: 'not enabled' } });
    const refused = await payout();
    expect(refused.ok).toBe(false);
    expect(refused.reason).toContain('NO_AUTH');

    next.set('/v3/transfer/batches', {
      status: 200,
      body: { out_batch_no: 'C2', batch_id: 'forged' },
      signWith: strangerKeys.privateKey,
    });
    expect((await payout()).ok).toBe(false);

    const offline = createWxpayProvider(configFor('http://127.0.0.1:1'));
    const unreachable = await offline.payout({ cashSn: 'C3', amountCents: 1, account: 'o', remark: 'r' });
    expect(unreachable.ok).toBe(false);
    expect(unreachable.reason).toBeTruthy();
  });
});

describe('wxpay provider: callbacks', () => {
  const provider = createWxpayProvider(configFor('http://127.0.0.1:1'));

  function transaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      mchid: MCH_ID,
      appid: APP_ID,
      out_trade_no: '20261122000001',
      transaction_id: '4200001234202611221234567890',
      trade_type: 'NATIVE',
      trade_state: 'SUCCESS',
      trade_state_desc: '支付成功',
      bank_type: 'OTHERS',
      attach: '',
      success_time: '2026-11-22T20:01:09+08:00',
      payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: { total: 1250, payer_total: 1250, currency: 'CNY', payer_currency: 'CNY' },
      ...overrides,
    };
  }

  /** Encrypts as WeChat does: AES-256-GCM with the API v3 key, the tag appended to the ciphertext. */
  function encrypt(plaintext: string, nonce: string, associatedData: string): string {
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(API_V3_KEY), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(associatedData));
    return Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
  }

  function notificationBody(data: Record<string, unknown>, eventType = 'TRANSACTION.SUCCESS'): string {
    const nonce = randomBytes(6).toString('hex');
    return JSON.stringify({
      id: 'EV-2018022511223320873',
      create_time: '2026-11-22T20:01:10+08:00',
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary: '支付成功',
      resource: {
        original_type: 'transaction',
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: encrypt(JSON.stringify(data), nonce, 'transaction'),
        associated_data: 'transaction',
        nonce,
      },
    });
  }

  /** Headers as Fastify hands them over: lower-case names. */
  const lower = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));

  const deliver = (rawBody: string, options: Parameters<typeof wechatSignedHeaders>[1] = {}) =>
    provider.verifyCallback({ headers: lower(wechatSignedHeaders(rawBody, options)), rawBody });

  it('verifies, decrypts and reports a successful payment', async () => {
    await expect(deliver(notificationBody(transaction()))).resolves.toEqual({
      orderSn: '20261122000001',
      tradeNo: '4200001234202611221234567890',
      amountCents: 1250,
      paid: true,
    });
  });

  it('reports a closed or failed payment as not paid', async () => {
    const closed = notificationBody(transaction({ trade_state: 'CLOSED' }), 'TRANSACTION.CLOSED');
    await expect(deliver(closed)).resolves.toMatchObject({ paid: false });
    const failed = notificationBody(transaction({ trade_state: 'PAYERROR' }), 'TRANSACTION.PAYERROR');
    await expect(deliver(failed)).resolves.toMatchObject({ paid: false });
  });

  it('refuses a tampered body', async () => {
    const body = notificationBody(transaction());
    const headers = lower(wechatSignedHeaders(body));
    const tampered = body.replace('"event_type":"TRANSACTION.SUCCESS"', '"event_type":"TRANSACTION.SUCCESS" ');
    await expect(provider.verifyCallback({ headers, rawBody: tampered })).rejects.toThrow(InvalidCallbackError);
  });

  it('refuses a signature by another key, from another key id, or missing', async () => {
    const body = notificationBody(transaction());
    await expect(deliver(body, { key: strangerKeys.privateKey })).rejects.toThrow(InvalidCallbackError);
    await expect(deliver(body, { serial: 'PUB_KEY_ID_OTHER' })).rejects.toThrow(InvalidCallbackError);
    await expect(provider.verifyCallback({ headers: {}, rawBody: body })).rejects.toThrow(InvalidCallbackError);
  });

  it('refuses a stale timestamp (a replay)', async () => {
    const body = notificationBody(transaction());
    await expect(deliver(body, { timestamp: Math.floor(Date.now() / 1000) - 301 })).rejects.toThrow(
      InvalidCallbackError,
    );
  });

  it('refuses another merchant or another app, even when signed and encrypted correctly', async () => {
    await expect(deliver(notificationBody(transaction({ mchid: '1900000999' })))).rejects.toThrow(InvalidCallbackError);
    await expect(deliver(notificationBody(transaction({ appid: 'wx0000000000000000' })))).rejects.toThrow(
      InvalidCallbackError,
    );
  });

  it('refuses a resource that does not decrypt with our key', async () => {
    const body = notificationBody(transaction());
    const parsed = JSON.parse(body) as { resource: { ciphertext: string } };
    const bytes = Buffer.from(parsed.resource.ciphertext, 'base64');
    bytes[0] = bytes[0]! ^ 1;
    parsed.resource.ciphertext = bytes.toString('base64');
    await expect(deliver(JSON.stringify(parsed))).rejects.toThrow(InvalidCallbackError);
  });

  it('answers WeChat in its words', () => {
    expect(provider.answer(true)).toMatchObject({ status: 204, body: '' });
    const refusal = provider.answer(false);
    expect(refusal).toMatchObject({ status: 400, contentType: 'application/json' });
    expect(JSON.parse(refusal.body)).toMatchObject({ code: 'FAIL' });
  });
});

describe('wxpay configuration', () => {
  it('names the empty required settings', () => {
    expect(missingWxpayConfig({ mchId: MCH_ID, appId: '', apiV3Key: API_V3_KEY })).toEqual([
      'appId',
      'merchantSerialNo',
      'merchantPrivateKey',
      'platformPublicKey',
    ]);
    expect(missingWxpayConfig(configFor('http://127.0.0.1:1'))).toEqual([]);
  });

  it('refuses an API v3 key that is not 32 bytes', () => {
    expect(() => createWxpayProvider(configFor('http://127.0.0.1:1', { apiV3Key: 'short' }))).toThrow(TypeError);
  });
});
