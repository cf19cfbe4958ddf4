/* POST /api/v3/users/sms.reset.pay.pwd: a forgotten pay password, reset with a code sent to the member's own number. */
import { Code, OrderType, PayType, type WalletInfo } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread } from '../../test/forum-fixtures.js';
import { createOrder, PAY_PASSWORD, recharge, setPayPassword } from '../../test/money-fixtures.js';
import { randomMobile, SMS_TEST_ENV, SmsLog } from '../../test/sms-log.js';

let t: TestServer;
let log: SmsLog;

beforeAll(async () => {
  log = new SmsLog();
  t = await startTestServer({ env: { ...SMS_TEST_ENV, PAYMENT_SANDBOX: '1' }, logStream: log });
});
afterAll(async () => {
  await t.close();
});

const NEW_PAY_PASSWORD = '246801';
const send = (mobile: string, type: string, token?: string) =>
  t.post('/api/v3/users/sms.send', { mobile, type }, token);
const resetPayPassword = (token: string | undefined, body: Record<string, unknown>) =>
  t.post<Record<string, never>>('/api/v3/users/sms.reset.pay.pwd', body, token);
const wallet = async (token: string) => (await t.get<WalletInfo>('/api/v3/wallet/user', token)).Data;
const pay = (token: string, orderSn: string, payPassword: string) =>
  t.post('/api/v3/trade/pay/order', { orderSn, paymentType: PayType.WALLET, payPassword }, token);

/** A member with a bound number, a pay password and 10.00 in the wallet. */
async function member() {
  const user = await buildUser(t);
  const mobile = randomMobile();
  expect((await send(mobile, 'bind', user.token)).Code).toBe(0);
  expect((await t.post('/api/v3/users/sms.bind', { mobile, code: log.codeFor(mobile) }, user.token)).Code).toBe(0);
  await setPayPassword(t, user);
  await recharge(t, user.token, '10.00');
  return { ...user, mobile };
}

async function rewardOrder(token: string) {
  const thread = await buildThread(t, (await buildUser(t)).token);
  return createOrder(t, token, { type: OrderType.REWARD, threadId: thread.threadId, amount: '1.00' });
}

describe('sms.reset.pay.pwd', () => {
  it('sets a new pay password with a reset_pay_pwd code, and clears the lock', async () => {
    const user = await member();
    const order = await rewardOrder(user.token);
    for (let i = 0; i < 5; i++) await pay(user.token, order.orderSn, '000000');
    expect((await pay(user.token, order.orderSn, PAY_PASSWORD)).Code).toBe(Code.TOO_MANY_REQUESTS);
    expect((await wallet(user.token)).payLockedUntil).not.toBeNull();

    expect((await send(user.mobile, 'reset_pay_pwd', user.token)).Code).toBe(0);
    const res = await resetPayPassword(user.token, {
      mobile: user.mobile,
      code: log.codeFor(user.mobile),
      payPassword: NEW_PAY_PASSWORD,
      payPasswordConfirmation: NEW_PAY_PASSWORD,
    });
    expect([res.Code, res.Data]).toEqual([0, {}]);
    expect(await wallet(user.token)).toMatchObject({ hasPayPassword: true, payLockedUntil: null });
    expect((await pay(user.token, order.orderSn, PAY_PASSWORD)).Code).toBe(Code.PAYMENT_FAILED);
    expect((await pay(user.token, order.orderSn, NEW_PAY_PASSWORD)).Code).toBe(0);
    expect((await wallet(user.token)).availableAmount).toBe('9.00');
  });

  it('refuses guests, bad input, another number, a wrong or used code, and changes nothing', async () => {
    const user = await member();
    const other = await member();
    const body = (extra: Record<string, unknown> = {}) => ({
      mobile: user.mobile,
      code: log.codeFor(user.mobile),
      payPassword: NEW_PAY_PASSWORD,
      payPasswordConfirmation: NEW_PAY_PASSWORD,
      ...extra,
    });
    expect((await send(user.mobile, 'reset_pay_pwd', user.token)).Code).toBe(0);
    expect((await resetPayPassword(undefined, body())).Code).toBe(Code.JUMP_TO_LOGIN);
    // Only one's own number gets such a code, and only it serves.
    expect((await send(other.mobile, 'reset_pay_pwd', user.token)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await resetPayPassword(other.token, body())).Code).toBe(Code.INVALID_PARAMETER);
    for (const extra of [
      { payPasswordConfirmation: '111111' },
      { payPassword: '12345', payPasswordConfirmation: '12345' },
      { code: 'abc' },
      { mobile: undefined },
    ]) {
      const res = await resetPayPassword(user.token, body(extra));
      expect(res.Code, JSON.stringify(extra)).toBe(Code.INVALID_PARAMETER);
      expect(res.Message, JSON.stringify(extra)).not.toBe('');
    }
    const right = log.codeFor(user.mobile);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect((await resetPayPassword(user.token, body({ code: wrong }))).Code).toBe(Code.SMS_CODE_WRONG);
    const order = await rewardOrder(user.token);
    expect((await resetPayPassword(user.token, body())).Code).toBe(0);
    expect((await resetPayPassword(user.token, body({ payPassword: '999999' }))).Code).toBe(Code.INVALID_PARAMETER);
    const again = await resetPayPassword(
      user.token,
      body({ payPassword: '999999', payPasswordConfirmation: '999999' }),
    );
    expect(again.Code).toBe(Code.SMS_CODE_EXPIRED);
    expect((await pay(user.token, order.orderSn, '999999')).Code).toBe(Code.PAYMENT_FAILED);
    expect((await pay(user.token, order.orderSn, NEW_PAY_PASSWORD)).Code).toBe(0);
    // The other member's pay password is untouched.
    const theirs = await rewardOrder(other.token);
    expect((await pay(other.token, theirs.orderSn, PAY_PASSWORD)).Code).toBe(0);
  });
});
