import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Code, OrderStatus, OrderType, PayType, type TradePayResult, type WalletInfo } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { createOrder, expectLedgerMatchesWallets, setSettings } from '../../test/money-fixtures.js';

/*
 * Alipay configured in the back office, end to end through our own endpoints: the settings turn it on, the pay call
 * answers a signed gateway URL, and a notification signed with "Alipay's" key (a key pair made here, as the test
 * stands in for Alipay) is verified and applied once through POST /api/v3/pay/notify/alipay.
 */

const APP_ID = '2021000000000042';
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipayKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: KeyObject, type: 'pkcs1' | 'spki') => key.export({ type, format: 'pem' } as never).toString();

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await expectLedgerMatchesWallets(t);
  await t.close();
});

function signedNotification(orderSn: string, amount: string, status = 'TRADE_SUCCESS', key = alipayKeys.privateKey) {
  const params: Record<string, string> = {
    app_id: APP_ID,
    auth_app_id: APP_ID,
    charset: 'utf-8',
    notify_id: `n${Date.now()}`,
    notify_time: '2026-11-22 20:01:10',
    notify_type: 'trade_status_sync',
    out_trade_no: orderSn,
    subject: 'Recharge',
    total_amount: amount,
    trade_no: `2026112222001${Math.floor(Math.random() * 1e9)}`,
    trade_status: status,
    version: '1.0',
  };
  const content = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const sign = createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
  return new URLSearchParams({ ...params, sign_type: 'RSA2', sign }).toString();
}

const notify = (body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v3/pay/notify/alipay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });

describe('Alipay through our endpoints', () => {
  it('is off until switched on and fully configured; then it pays a recharge once per notification', async () => {
    const member = await buildUser(t);
    const order = await createOrder(t, member.token, { type: OrderType.RECHARGE, amount: '12.50' });
    const off = await t.post('/api/v3/trade/pay/order', { orderSn: order.orderSn, paymentType: 30 }, member.token);
    expect(off.Code).toBe(Code.INVALID_PARAMETER);
    expect((await notify(signedNotification(order.orderSn, '12.50'))).statusCode).toBe(404);

    await setSettings(t, admin, { alipayEnabled: true, alipayAppId: APP_ID }, 'pay');
    const status = await t.get<{ alipay: { enabled: boolean; missing: string[] } }>('/api/backAdmin/pay/status', admin);
    expect(status.Data.alipay).toEqual({ enabled: false, missing: ['privateKey', 'alipayPublicKey'] });
    expect((await t.get('/api/backAdmin/pay/status', member.token)).Code).toBe(Code.UNAUTHORIZED);
    await setSettings(
      t,
      admin,
      {
        alipayPrivateKey: pem(appKeys.privateKey, 'pkcs1'),
        alipayPublicKey: pem(alipayKeys.publicKey, 'spki'),
        alipayGateway: 'https://openapi.alipay.example/gateway.do',
      },
      'pay',
    );
    expect(
      (await t.get<{ alipay: { enabled: boolean } }>('/api/backAdmin/pay/status', admin)).Data.alipay.enabled,
    ).toBe(true);
    const methods = await t.get<{ types: number[] }>('/api/v3/pay/methods?platform=pc');
    expect(methods.Data.types).toEqual([PayType.ALIPAY_PAGE]);

    const started = await t.post<TradePayResult>(
      '/api/v3/trade/pay/order',
      { orderSn: order.orderSn, paymentType: PayType.ALIPAY_PAGE },
      member.token,
    );
    expect(started.Code).toBe(0);
    const url = new URL(started.Data.payUrl!);
    expect(url.host).toBe('openapi.alipay.example');
    expect(url.searchParams.get('notify_url')).toMatch(/\/api\/v3\/pay\/notify\/alipay$/);

    // A notification signed with another key, and one with another amount: refused, nothing moves.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await notify(signedNotification(order.orderSn, '12.50', 'TRADE_SUCCESS', stranger.privateKey));
    expect([forged.statusCode, forged.body]).toEqual([200, 'fail']);
    expect((await notify(signedNotification(order.orderSn, '1250.00'))).body).toBe('fail');

    const body = signedNotification(order.orderSn, '12.50');
    for (let i = 0; i < 10; i++) expect((await notify(body)).body).toBe('success');
    const wallet = (await t.get<WalletInfo>('/api/v3/wallet/user', member.token)).Data;
    expect(wallet.availableAmount).toBe('12.50');
    const logs = await t.app.ctx.db.selectFrom('walletLogs').selectAll().where('userId', '=', member.id).execute();
    expect(logs).toHaveLength(1);
    const paid = await t.app.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('orderSn', '=', order.orderSn)
      .executeTakeFirstOrThrow();
    expect(paid).toMatchObject({ status: OrderStatus.PAID, paymentType: PayType.ALIPAY_PAGE });
    expect(paid.tradeNo).toMatch(/^2026112222001/);
    // The refund's "closed" notification later never unpays it.
    expect((await notify(signedNotification(order.orderSn, '12.50', 'TRADE_CLOSED'))).body).toBe('success');
    expect(
      (
        await t.app.ctx.db
          .selectFrom('orders')
          .select('status')
          .where('orderSn', '=', order.orderSn)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe(OrderStatus.PAID);
  });
});
