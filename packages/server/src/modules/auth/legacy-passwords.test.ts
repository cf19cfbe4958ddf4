/*
 * Passwords imported from Discuz! Q (Laravel): bcrypt hashes, `$2y$10$…` as PHP's password_hash writes them. They
 * verify on first use, at sign-in and for the wallet's pay password, and are then replaced by our argon2 hash.
 */
import { Code, OrderType, PayType } from '@luntan/shared';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread } from '../../test/forum-fixtures.js';
import { createOrder, expectLedgerMatchesWallets, recharge, setPayPassword } from '../../test/money-fixtures.js';

const LOGIN = '/api/v3/users/username.login';

/** From the PHP manual's password_verify example: password_hash('rasmuslerdorf', PASSWORD_DEFAULT). */
const PHP_HASH = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
const PHP_PASSWORD = 'rasmuslerdorf';

/** A `$2y$10$` hash of `password`, as Discuz! Q stores it (bcryptjs writes `$2b$`, the same algorithm). */
const phpHash = (password: string) => bcrypt.hashSync(password, 10).replace(/^\$2b\$/, '$2y$');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { PAYMENT_SANDBOX: '1' } });
});
afterAll(async () => {
  await expectLedgerMatchesWallets(t);
  await t.close();
});

const storedPassword = async (userId: number) =>
  (await t.app.ctx.db.selectFrom('users').select('passwordHash').where('id', '=', userId).executeTakeFirstOrThrow())
    .passwordHash;
const setStoredPassword = (userId: number, passwordHash: string) =>
  t.app.ctx.db.updateTable('users').set({ passwordHash }).where('id', '=', userId).execute();
const storedPayPassword = async (userId: number) =>
  (
    await t.app.ctx.db
      .selectFrom('wallets')
      .select('payPasswordHash')
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow()
  ).payPasswordHash;
const login = (username: string, password: string) => t.post<{ userId: number }>(LOGIN, { username, password });

describe('a legacy bcrypt login password', () => {
  it.each([
    ['made here', 'discuz-pass-1', phpHash('discuz-pass-1')],
    ["PHP's own", PHP_PASSWORD, PHP_HASH],
  ])(
    '(%s) refuses a wrong password and keeps the hash, signs in with the right one and becomes argon2',
    async (_n, password, hash) => {
      expect(hash).toMatch(/^\$2y\$10\$/);
      const user = await buildUser(t);
      await setStoredPassword(user.id, hash);

      expect((await login(user.username, 'not-the-password')).Code).toBe(Code.LOGIN_FAILED);
      // Our former password no longer works either: the stored hash is what counts.
      expect((await login(user.username, user.password)).Code).toBe(Code.LOGIN_FAILED);
      expect(await storedPassword(user.id)).toBe(hash);

      const first = await login(user.username, password);
      expect(first).toMatchObject({ Code: 0, Data: { userId: user.id } });
      const upgraded = await storedPassword(user.id);
      expect(upgraded).toMatch(/^\$argon2/);

      expect((await login(user.username, password)).Code).toBe(0);
      expect(await storedPassword(user.id)).toBe(upgraded);
      expect((await login(user.username, 'not-the-password')).Code).toBe(Code.LOGIN_FAILED);
    },
  );

  it('accepts the $2a$ and $2b$ spellings too', async () => {
    for (const prefix of ['$2a$', '$2b$']) {
      const user = await buildUser(t);
      await setStoredPassword(user.id, bcrypt.hashSync('other-pass-2', 10).replace(/^\$2b\$/, prefix));
      expect((await login(user.username, 'other-pass-2')).Code).toBe(0);
      expect(await storedPassword(user.id)).toMatch(/^\$argon2/);
    }
  });

  it('never verifies an empty stored password (an account that signs in by SMS or WeChat)', async () => {
    const user = await buildUser(t);
    await setStoredPassword(user.id, '');
    expect((await login(user.username, '')).Code).not.toBe(0);
    expect((await login(user.username, user.password)).Code).toBe(Code.LOGIN_FAILED);
    expect(await storedPassword(user.id)).toBe('');
  });

  it('confirms setting a pay password and is upgraded there too', async () => {
    const user = await buildUser(t);
    const hash = phpHash('legacy-login-3');
    await setStoredPassword(user.id, hash);
    const reset = (password: string) =>
      t.post('/api/v3/users/pay-password/reset', { password, payPassword: '246810' }, user.token);
    expect((await reset('wrong-login-3')).Data).toMatchObject({ field: 'password' });
    expect(await storedPassword(user.id)).toBe(hash);
    expect((await reset('legacy-login-3')).Code).toBe(0);
    expect(await storedPassword(user.id)).toMatch(/^\$argon2/);
    expect((await login(user.username, 'legacy-login-3')).Code).toBe(0);
  });
});

describe('a legacy bcrypt pay password', () => {
  it('refuses a wrong one and keeps the hash, pays with the right one and becomes argon2', async () => {
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token);
    const payer = await buildUser(t);
    await recharge(t, payer.token, '5.00');
    await setPayPassword(t, payer);
    const hash = phpHash('975310');
    await t.app.ctx.db.updateTable('wallets').set({ payPasswordHash: hash }).where('userId', '=', payer.id).execute();

    const reward = () =>
      createOrder(t, payer.token, { type: OrderType.REWARD, threadId: thread.threadId, amount: '1.00' });
    const pay = (orderSn: string, payPassword: string) =>
      t.post('/api/v3/trade/pay/order', { orderSn, paymentType: PayType.WALLET, payPassword }, payer.token);

    const order = await reward();
    expect(await pay(order.orderSn, '123456')).toMatchObject({ Code: Code.PAYMENT_FAILED, Data: { triesLeft: 4 } });
    expect(await storedPayPassword(payer.id)).toBe(hash);

    expect((await pay(order.orderSn, '975310')).Code).toBe(0);
    const upgraded = await storedPayPassword(payer.id);
    expect(upgraded).toMatch(/^\$argon2/);

    const second = await reward();
    expect((await pay(second.orderSn, '975310')).Code).toBe(0);
    expect(await storedPayPassword(payer.id)).toBe(upgraded);
    expect((await t.get<{ availableAmount: string }>('/api/v3/wallet/user', payer.token)).Data.availableAmount).toBe(
      '3.00',
    );
  });
});
