import { createSign, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn, type StandInAnswer } from '../../../test/stand-in-server.js';
import { createAlipayProvider, missingAlipayConfig, type AlipayConfig } from './alipay.js';
import { InvalidCallbackError, PaymentType, type PaymentProvider, type PaymentRequest } from './types.js';

const APP_ID = '2021000000000001';
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipayKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const strangerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });

const privatePem = (key: KeyObject, type: 'pkcs1' | 'pkcs8') => key.export({ type, format: 'pem' }).toString();
const publicPem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

function configFor(gateway?: string): AlipayConfig {
  return {
    appId: APP_ID,
    privateKey: privatePem(appKeys.privateKey, 'pkcs1'),
    alipayPublicKey: publicPem(alipayKeys.publicKey),
    signType: 'RSA2',
    ...(gateway ? { gateway } : {}),
  };
}

/** Alipay's signing content: every parameter but sign (and, for notifications, sign_type), sorted, k=v joined by &. */
function signContent(params: Record<string, string>, omit: string[]): string {
  return Object.keys(params)
    .filter((key) => !omit.includes(key))
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&');
}

const rsaSign = (text: string, key: KeyObject) => createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    orderSn: '20261122000001',
    amountCents: 1250,
    subject: 'Recharge 12.50',
    paymentType: PaymentType.ALIPAY_PAGE,
    clientIp: '203.0.113.9',
    notifyUrl: 'https://forum.example/api/v3/payments/notify/alipay',
    returnUrl: 'https://forum.example/pay/result?sn=20261122000001',
    expiresAt: '2026-11-22T12:30:00.000Z',
    ...overrides,
  };
}

describe('alipay provider: starting a payment', () => {
  const gateway = 'http://127.0.0.1:9/gateway.do';
  const provider = createAlipayProvider(configFor(gateway));

  it('answers a signed gateway URL for the desktop cashier, without a request', async () => {
    const start = await provider.createPayment(paymentRequest());
    expect(start.kind).toBe('redirect');
    if (start.kind !== 'redirect') return;
    const url = new URL(start.url);
    expect(`${url.origin}${url.pathname}`).toBe(gateway);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      app_id: APP_ID,
      method: 'alipay.trade.page.pay',
      sign_type: 'RSA2',
      notify_url: 'https://forum.example/api/v3/payments/notify/alipay',
      return_url: 'https://forum.example/pay/result?sn=20261122000001',
    });
    // Beijing time, as the gateway reads it.
    expect(params.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const stamped = Date.parse(`${params.timestamp!.replace(' ', 'T')}+08:00`);
    expect(Math.abs(stamped - Date.now())).toBeLessThan(60_000);
    const biz = JSON.parse(params.biz_content!) as Record<string, string>;
    expect(biz).toEqual({
      out_trade_no: '20261122000001',
      total_amount: '12.50',
      subject: 'Recharge 12.50',
      product_code: 'FAST_INSTANT_TRADE_PAY',
      time_expire: '2026-11-22 20:30:00',
    });
    const verified = createVerify('RSA-SHA256')
      .update(signContent(params, ['sign']), 'utf8')
      .verify(appKeys.publicKey, params.sign!, 'base64');
    expect(verified).toBe(true);
  });

  it('uses the wap cashier for the mobile type, with quit_url', async () => {
    const start = await provider.createPayment(paymentRequest({ paymentType: PaymentType.ALIPAY_WAP }));
    if (start.kind !== 'redirect') throw new Error('expected a redirect');
    const params = Object.fromEntries(new URL(start.url).searchParams);
    expect(params.method).toBe('alipay.trade.wap.pay');
    expect(JSON.parse(params.biz_content!)).toMatchObject({
      product_code: 'QUICK_WAP_WAY',
      quit_url: 'https://forum.example/pay/result?sn=20261122000001',
    });
  });

  it('refuses a payment type that is not Alipay', async () => {
    await expect(provider.createPayment(paymentRequest({ paymentType: PaymentType.WXPAY_NATIVE }))).rejects.toThrow(
      TypeError,
    );
  });

  it('accepts keys as bare base64, as Alipay key tool prints them (PKCS#8)', async () => {
    const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const bareProvider = createAlipayProvider({
      ...configFor(gateway),
      privateKey: bare(privatePem(appKeys.privateKey, 'pkcs8')),
      alipayPublicKey: bare(publicPem(alipayKeys.publicKey)),
    });
    const start = await bareProvider.createPayment(paymentRequest());
    if (start.kind !== 'redirect') throw new Error('expected a redirect');
    const params = Object.fromEntries(new URL(start.url).searchParams);
    expect(
      createVerify('RSA-SHA256')
        .update(signContent(params, ['sign']), 'utf8')
        .verify(appKeys.publicKey, params.sign!, 'base64'),
    ).toBe(true);
  });
});

describe('alipay provider: callbacks', () => {
  const provider = createAlipayProvider(configFor());

  function notification(overrides: Record<string, string> = {}): Record<string, string> {
    return {
      gmt_create: '2026-11-22 20:01:02',
      charset: 'utf-8',
      gmt_payment: '2026-11-22 20:01:09',
      notify_time: '2026-11-22 20:01:10',
      subject: 'Recharge 12.50 (100% fun)',
      buyer_id: '2088102177846880',
      invoice_amount: '12.50',
      version: '1.0',
      notify_id: '2026112200222200109012340512345678',
      fund_bill_list: '[{"amount":"12.50","fundChannel":"ALIPAYACCOUNT"}]',
      notify_type: 'trade_status_sync',
      out_trade_no: '20261122000001',
      total_amount: '12.50',
      trade_status: 'TRADE_SUCCESS',
      trade_no: '2026112222001446880500012345',
      auth_app_id: APP_ID,
      receipt_amount: '12.50',
      app_id: APP_ID,
      buyer_pay_amount: '12.50',
      seller_id: '2088102177476910',
      ...overrides,
    };
  }

  /** Signs as Alipay signs an asynchronous notification: without sign and sign_type. */
  function signed(params: Record<string, string>, key: KeyObject = alipayKeys.privateKey): Record<string, string> {
    return { ...params, sign_type: 'RSA2', sign: rsaSign(signContent(params, ['sign', 'sign_type']), key) };
  }

  const body = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const verify = (params: Record<string, string>) =>
    provider.verifyCallback({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: body(params),
    });

  it('verifies a paid notification and reports it', async () => {
    await expect(verify(signed(notification()))).resolves.toEqual({
      orderSn: '20261122000001',
      tradeNo: '2026112222001446880500012345',
      amountCents: 1250,
      paid: true,
    });
    await expect(verify(signed(notification({ trade_status: 'TRADE_FINISHED' })))).resolves.toMatchObject({
      paid: true,
    });
  });

  it('reports a closed trade as not paid', async () => {
    await expect(verify(signed(notification({ trade_status: 'TRADE_CLOSED' })))).resolves.toMatchObject({
      orderSn: '20261122000001',
      paid: false,
    });
  });

  it('refuses a tampered amount', async () => {
    const params = signed(notification());
    await expect(verify({ ...params, total_amount: '1250.00' })).rejects.toThrow(InvalidCallbackError);
  });

  it('refuses a notification for another app, even correctly signed', async () => {
    await expect(verify(signed(notification({ app_id: '2021000000000002' })))).rejects.toThrow(InvalidCallbackError);
  });

  it('refuses a missing signature, a stranger signature and another sign_type', async () => {
    const { sign: _sign, ...unsigned } = signed(notification());
    await expect(verify(unsigned)).rejects.toThrow(InvalidCallbackError);
    await expect(verify(signed(notification(), strangerKeys.privateKey))).rejects.toThrow(InvalidCallbackError);
    await expect(verify({ ...signed(notification()), sign_type: 'RSA' })).rejects.toThrow(InvalidCallbackError);
    await expect(provider.verifyCallback({ headers: {}, rawBody: '' })).rejects.toThrow(InvalidCallbackError);
  });

  it('refuses a status it does not expect and an amount that is not one', async () => {
    await expect(verify(signed(notification({ trade_status: 'WAIT_BUYER_PAY' })))).rejects.toThrow(
      InvalidCallbackError,
    );
    await expect(verify(signed(notification({ total_amount: '12.505' })))).rejects.toThrow(InvalidCallbackError);
  });

  it('answers Alipay in its words', () => {
    expect(provider.answer(true)).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' });
    expect(provider.answer(false).body).toBe('fail');
  });
});

describe('alipay provider: refund and payout through the gateway', () => {
  let gateway: StandIn;
  let provider: PaymentProvider;
  /** What the stand-in answers next, per API method: the inner object of "<method>_response". */
  const next = new Map<string, { response: Record<string, unknown>; signWith?: KeyObject; status?: number }>();

  /** Plays openapi.alipay.com/gateway.do: checks our signature, answers as Alipay does (signed JSON). */
  function playGateway(request: { url: string; body: string }): StandInAnswer {
    const url = new URL(request.url, 'http://gateway');
    const params = {
      ...Object.fromEntries(url.searchParams),
      ...Object.fromEntries(new URLSearchParams(request.body)),
    };
    const ours = createVerify('RSA-SHA256')
      .update(signContent(params, ['sign']), 'utf8')
      .verify(appKeys.publicKey, params.sign ?? '', 'base64');
    const method = params.method ?? '';
    const key = `${method.replaceAll('.', '_')}_response`;
    if (!ours || params.app_id !== APP_ID) {
      // Alipay's own refusal of a bad signature (unsigned, under the method's key).
      const refusal = { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: 'bad' };
      return { status: 200, body: JSON.stringify({ [key]: refusal }) };
    }
    const planned = next.get(method);
    if (!planned) return { status: 500, body: 'no answer planned' };
    if (planned.status && planned.status !== 200) return { status: planned.status, body: 'upstream trouble' };
    const inner = JSON.stringify(planned.response);
    const sign = rsaSign(inner, planned.signWith ?? alipayKeys.privateKey);
    return {
      status: 200,
      headers: { 'content-type': 'text/html;charset=utf-8' },
      body: `{"${key}":${inner},"sign":"${sign}"}`,
    };
  }

  beforeAll(async () => {
    gateway = await startStandIn(playGateway);
    provider = createAlipayProvider(configFor(`${gateway.origin}/gateway.do`));
  });
  afterAll(() => gateway.close());

  const lastBizContent = () => {
    const last = gateway.requests.at(-1);
    if (!last) throw new Error('no request');
    return JSON.parse(new URLSearchParams(last.body).get('biz_content') ?? '{}') as Record<string, unknown>;
  };

  it('refunds', async () => {
    next.set('alipay.trade.refund', {
      response: {
        code: '10000',
        msg: 'Success',
        trade_no: '2026112222001446880500012345',
        out_trade_no: '20261122000001',
        buyer_logon_id: 'mem***@example.com',
        fund_change: 'Y',
        refund_fee: '5.00',
      },
    });
    const result = await provider.refund({
      orderSn: '20261122000001',
      refundSn: 'R20261122000001',
      amountCents: 500,
      totalCents: 1250,
      reason: 'Order cancelled',
    });
    expect(result).toEqual({ ok: true });
    expect(lastBizContent()).toEqual({
      out_trade_no: '20261122000001',
      out_request_no: 'R20261122000001',
      refund_amount: '5.00',
      refund_reason: 'Order cancelled',
    });
  });

  it('reports a refused refund with its reason', async () => {
    next.set('alipay.trade.refund', {
      response: { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: 'trade not found' },
    });
    const result = await provider.refund({
      orderSn: 'missing',
      refundSn: 'R2',
      amountCents: 100,
      totalCents: 100,
      reason: 'x',
    });
    expect(result.ok).toBe(false);
    expect(result.reason).toContain('ACQ.TRADE_NOT_EXIST');
  });

  it('pays out to an Alipay account', async () => {
    next.set('alipay.fund.trans.uni.transfer', {
      response: {
        code: '10000',
        msg: 'Success',
        out_biz_no: 'C20261122000007',
        order_id: '20261122110070000006210012345678',
        pay_fund_order_id: '20261122110070001506210012345678',
        status: 'SUCCESS',
        trans_date: '2026-11-22 20:05:00',
      },
    });
    const result = await provider.payout({
      cashSn: 'C20261122000007',
      amountCents: 100,
      account: 'member@example.com',
      realName: '张三',
      remark: 'Withdrawal C20261122000007',
    });
    expect(result).toEqual({ ok: true, tradeNo: '20261122110070000006210012345678' });
    expect(lastBizContent()).toMatchObject({
      out_biz_no: 'C20261122000007',
      trans_amount: '1.00',
      product_code: 'TRANS_ACCOUNT_NO_PWD',
      biz_scene: 'DIRECT_TRANSFER',
      payee_info: { identity: 'member@example.com', identity_type: 'ALIPAY_LOGON_ID', name: '张三' },
    });
  });

  const payout = () =>
    provider.payout({ cashSn: 'C2', amountCents: 100, account: 'nobody@example.com', remark: 'Withdrawal C2' });

  it('reports a refused payout with its reason, without throwing', async () => {
    next.set('alipay.fund.trans.uni.transfer', {
      response: { code: '40004', msg: 'Business Failed', sub_code: 'PAYEE_NOT_EXIST', sub_msg: 'payee not found' },
    });
    const result = await payout();
    expect(result.ok).toBe(false);
    expect(result.pending).toBeUndefined();
    expect(result.reason).toContain('PAYEE_NOT_EXIST');
  });

  it('reports a transfer still being processed as pending, never as refused', async () => {
    next.set('alipay.fund.trans.uni.transfer', {
      response: { code: '10000', msg: 'Success', order_id: '2026112200001', status: 'DEALING' },
    });
    expect(await payout()).toMatchObject({ ok: false, pending: true });
  });

  it('does not believe an answer signed by someone else', async () => {
    next.set('alipay.fund.trans.uni.transfer', {
      response: { code: '10000', msg: 'Success', order_id: 'forged', status: 'SUCCESS' },
      signWith: strangerKeys.privateKey,
    });
    const result = await payout();
    expect(result).toMatchObject({ ok: false, pending: true });
    expect(result.reason).toBeTruthy();
  });

  it('reports an HTTP failure and an unreachable gateway as reasons', async () => {
    next.set('alipay.fund.trans.uni.transfer', { response: {}, status: 502 });
    expect(await payout()).toMatchObject({ ok: false, pending: true });
    const offline = createAlipayProvider(configFor('http://127.0.0.1:1/gateway.do'));
    const result = await offline.refund({ orderSn: 'a', refundSn: 'b', amountCents: 1, totalCents: 1, reason: 'c' });
    expect(result.ok).toBe(false);
    expect(result.reason).toBeTruthy();
  });

  it('is refused by the gateway when our key is not the registered one', async () => {
    const impostor = createAlipayProvider({
      ...configFor(`${gateway.origin}/gateway.do`),
      privateKey: privatePem(strangerKeys.privateKey, 'pkcs8'),
    });
    next.set('alipay.trade.refund', { response: { code: '10000', msg: 'Success' } });
    const result = await impostor.refund({ orderSn: 'a', refundSn: 'b', amountCents: 1, totalCents: 1, reason: 'c' });
    expect(result.ok).toBe(false);
  });
});

describe('missingAlipayConfig', () => {
  it('names the empty required settings', () => {
    expect(missingAlipayConfig({ appId: ' ', privateKey: 'x', signType: 'RSA2' })).toEqual([
      'appId',
      'alipayPublicKey',
    ]);
    expect(missingAlipayConfig(configFor())).toEqual([]);
  });
});
