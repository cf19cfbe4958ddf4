import type { OrderInfo, TradePayResult } from '@luntan/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** The member's money: the wallet, recharging through the sandbox provider, withdrawing, the pay dialog. */
const e2e = useE2E({ serverEnv: { PAYMENT_SANDBOX: '1' } });
const PASSWORD = 'e2e-Passw0rd';
const PAY_PASSWORD = '135790';

async function member() {
  const username = uniqueName('w');
  const client = await ApiClient.register(e2e.baseUrl, username, PASSWORD);
  return { username, client, token: client.session.accessToken, id: client.userId };
}
type Member = Awaited<ReturnType<typeof member>>;

async function browserOf(
  who: Member,
  locale: 'zh' | 'en' = 'zh',
): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const opened = await e2e.newPage();
  await opened.context.addCookies([
    { name: 'access_token', value: who.token, url: e2e.baseUrl, httpOnly: true },
    { name: 'locale', value: locale, url: e2e.baseUrl },
  ]);
  return opened;
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

/** Recharges through the API: the order, the sandbox payment, the checkout's decision. */
async function rechargeByApi(who: Member, amount: string): Promise<void> {
  const order = await who.client.ok<OrderInfo>('POST', '/api/v3/order.create', { type: 30, amount });
  await who.client.ok<TradePayResult>('POST', '/api/v3/trade/pay/order', { orderSn: order.orderSn, paymentType: 90 });
  await who.client.ok('POST', '/api/v3/pay/sandbox/complete', { orderSn: order.orderSn, outcome: 'paid' });
}

const text = async (page: Page, testId: string): Promise<string> =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

async function waitForText(page: Page, testId: string, expected: string): Promise<void> {
  await expect.poll(() => text(page, testId), { timeout: 15_000 }).toBe(expected);
}

describe('wallet', () => {
  it('sets the pay password, recharges 20.00 through the sandbox, withdraws 5.00', async () => {
    const who = await member();
    const { page, errors } = await browserOf(who);

    // The personal centre links to the wallet.
    await open(page, '/my');
    await e2e.screenshot(page, 'my-wallet-link-zh');
    await page.getByTestId('my-wallet').click();
    await page.waitForURL((url) => url.pathname === '/wallet');
    await waitForText(page, 'wallet-available', '¥0.00');
    await waitForText(page, 'wallet-frozen', '¥0.00');
    await page.getByTestId('ledger').getByText('暂无资金记录').waitFor();
    await e2e.screenshot(page, 'wallet-zh');

    // The pay password: six digits, typed twice, confirmed by the login password.
    await page.getByTestId('wallet-tab-payPassword').click();
    await page.getByTestId('pay-password-new').fill('12345');
    await page.getByTestId('pay-password-confirm').fill('12345');
    await page.getByTestId('pay-password-login').fill(PASSWORD);
    await page.getByTestId('pay-password-save').click();
    await page.getByTestId('pay-password-error').getByText('6 位数字').waitFor();
    await page.getByTestId('pay-password-new').fill(PAY_PASSWORD);
    await page.getByTestId('pay-password-confirm').fill(PAY_PASSWORD);
    await page.getByTestId('pay-password-login').fill('not-my-password');
    await page.getByTestId('pay-password-save').click();
    await page.getByTestId('pay-password-error').waitFor();
    await e2e.screenshot(page, 'wallet-pay-password-error-zh');
    await page.getByTestId('pay-password-new').fill(PAY_PASSWORD);
    await page.getByTestId('pay-password-confirm').fill(PAY_PASSWORD);
    await page.getByTestId('pay-password-login').fill(PASSWORD);
    await page.getByTestId('pay-password-save').click();
    await page.getByText('已设置支付密码').waitFor();
    await e2e.screenshot(page, 'wallet-pay-password-zh');

    // Recharge 20.00 through the sandbox: its checkout, then back to the wallet.
    await page.getByTestId('recharge').click();
    await page.waitForURL((url) => url.pathname === '/wallet/recharge');
    await page.getByTestId('recharge-form').waitFor();
    await page.getByTestId('recharge-method-90').getByText('沙箱支付（测试）').waitFor();
    await page.getByTestId('recharge-amount').fill('20');
    await page.getByTestId('recharge-method-90').click();
    await e2e.screenshot(page, 'recharge-zh');
    await page.getByTestId('recharge-submit').click();
    await page.waitForURL((url) => url.pathname === '/pay/sandbox');
    await hydrated(page);
    const checkout = new URL(page.url());
    expect(checkout.searchParams.get('orderSn')).toBeTruthy();
    expect(checkout.searchParams.get('return')).toMatch(/^\/wallet/);
    await waitForText(page, 'sandbox-amount', '¥20.00');
    await page.getByText('测试支付', { exact: true }).waitFor();
    await e2e.screenshot(page, 'sandbox-zh');
    await page.getByTestId('sandbox-pay').click();
    await page.waitForURL((url) => url.pathname === '/wallet');
    await waitForText(page, 'wallet-available', '¥20.00');
    await page.getByTestId('recharge-success').waitFor();
    const rechargeRow = page.locator('[data-testid="ledger-row"][data-change-type="31"]');
    await rechargeRow.waitFor();
    expect(await rechargeRow.count()).toBe(1);
    expect(await rechargeRow.textContent()).toContain('+¥20.00');
    await e2e.screenshot(page, 'wallet-recharged-zh');

    // The ledger's filter: withdrawal types only shows nothing yet.
    await page.getByTestId('ledger-type').selectOption('10');
    await page.getByTestId('ledger-apply').click();
    await page.waitForURL((url) => url.searchParams.get('type') === '10');
    await page.getByTestId('ledger').getByText('暂无资金记录').waitFor();

    // Withdraw 5.00: available 15.00, frozen 5.00 (the site charges no fee by default).
    await page.getByTestId('wallet-tab-withdraw').click();
    await page.getByTestId('withdraw-form').waitFor();
    await page.getByTestId('withdraw-amount').fill('5');
    await expect.poll(() => text(page, 'withdraw-fee')).toContain('¥0.00');
    await page.getByTestId('withdraw-account').fill('alipay-e2e@example.com');
    // Money leaving the site needs the pay password: a wrong one says how many tries are left.
    await page.getByTestId('withdraw-pay-password').fill('000000');
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-error').getByText('还可以再试 4 次').waitFor();
    await page.getByTestId('withdraw-pay-password').fill(PAY_PASSWORD);
    await e2e.screenshot(page, 'wallet-withdraw-zh');
    await page.getByTestId('withdraw-submit').click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'cash');
    await page.getByTestId('cash-row').first().waitFor();
    expect(await text(page, 'cash-status')).toBe('待审核');
    await waitForText(page, 'wallet-available', '¥15.00');
    await waitForText(page, 'wallet-frozen', '¥5.00');
    await e2e.screenshot(page, 'wallet-cash-zh');

    // My orders: the recharge, paid.
    await page.getByTestId('wallet-tab-orders').click();
    await page.getByTestId('order-row').first().waitFor();
    expect(await text(page, 'order-status')).toBe('已支付');
    await e2e.screenshot(page, 'wallet-orders-zh');

    // The ledger lists the freeze too.
    await page.getByTestId('wallet-tab-log').click();
    await page.locator('[data-testid="ledger-row"][data-change-type="10"]').waitFor();
    expect(errors).toEqual([]);
  });

  it('pays the joining fee of a paid site from the wallet through the pay dialog', async () => {
    const admin = await e2e.admin();
    await admin.settings({ siteMode: 'pay', sitePrice: '3.00', siteExpire: 30 });
    try {
      // Registering while the site is paid, the member owes the fee; an administrator gives them 10.00.
      const who = await member();
      await admin.ok('POST', '/api/backAdmin/users/wallet.update', {
        userId: who.id,
        operateType: 1,
        operateAmount: '10',
        operateReason: 'e2e',
      });
      await who.client.ok('POST', '/api/v3/users/pay-password/reset', {
        password: PASSWORD,
        payPassword: PAY_PASSWORD,
      });
      const { page } = await browserOf(who);
      // A member who has not paid is sent to the invitation, on the first page and on -3006 answers later.
      await open(page, '/');
      await page.waitForURL((url) => url.pathname === '/forum/partner-invite');
      await hydrated(page);
      await waitForText(page, 'invite-price', '¥3.00');
      await waitForText(page, 'invite-duration', '30 天');
      await e2e.screenshot(page, 'partner-invite-zh');

      // The same in English, with the dialog open (closed again without paying).
      const english = await browserOf(who, 'en');
      await open(english.page, '/forum/partner-invite');
      await english.page.getByText('Pay and join').waitFor();
      await e2e.screenshot(english.page, 'partner-invite-en');
      await english.page.getByTestId('invite-pay').click();
      await waitForText(english.page, 'pay-amount', '¥3.00');
      await english.page.getByText('Wallet balance (¥10.00 available)').waitFor();
      await e2e.screenshot(english.page, 'pay-dialog-en');
      await english.page.getByTestId('pay-cancel').click();
      await english.context.close();

      await page.getByTestId('invite-pay').click();
      const dialog = page.getByTestId('pay-dialog');
      await waitForText(page, 'pay-amount', '¥3.00');
      await dialog.getByTestId('pay-method-20').getByText('¥10.00').waitFor();
      await dialog.getByTestId('pay-method-20').click();
      await page.getByTestId('pay-password').fill('000000');
      await page.getByTestId('pay-confirm').click();
      await page.getByTestId('pay-error').waitFor();
      expect(await text(page, 'pay-error')).toMatch(/4/);
      await e2e.screenshot(page, 'pay-dialog-zh');
      await page.getByTestId('pay-password').fill(PAY_PASSWORD);
      await page.getByTestId('pay-confirm').click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByText('已加入，欢迎！').waitFor();
      expect(await who.client.call('GET', '/api/v3/wallet/log')).toMatchObject({ Code: 0 });
      const wallet = await who.client.ok<{ availableAmount: string }>('GET', '/api/v3/wallet/user');
      expect(wallet.availableAmount).toBe('7.00');
    } finally {
      await admin.settings({ siteMode: 'public', sitePrice: '0.00', siteExpire: 0 });
    }
  });

  it('speaks English; the sandbox checkout fails an order and returns only to a same-site path', async () => {
    const who = await member();
    await rechargeByApi(who, '12.5');
    const { page, errors } = await browserOf(who, 'en');

    await open(page, '/wallet');
    await waitForText(page, 'wallet-available', '¥12.50');
    await page.getByText('Recharge', { exact: true }).first().waitFor();
    await e2e.screenshot(page, 'wallet-en');
    await open(page, '/wallet?tab=payPassword');
    await page.getByText('No pay password yet', { exact: false }).waitFor();
    await e2e.screenshot(page, 'wallet-pay-password-en');
    // Without a pay password the withdrawal tab asks for one first.
    await open(page, '/wallet?tab=withdraw');
    await page.getByTestId('withdraw-needs-pay-password').getByText('Withdrawing needs your pay password').waitFor();
    await e2e.screenshot(page, 'wallet-withdraw-en');
    await open(page, '/wallet?tab=orders');
    await page.getByTestId('order-row').first().waitFor();
    expect(await text(page, 'order-status')).toBe('Paid');
    await e2e.screenshot(page, 'wallet-orders-en');
    await open(page, '/wallet/recharge');
    await page.getByTestId('recharge-method-90').getByText('Sandbox (test)').waitFor();
    await e2e.screenshot(page, 'recharge-en');

    // An order left pending, failed at the checkout; a return address to another site becomes /wallet.
    const order = await who.client.ok<OrderInfo>('POST', '/api/v3/order.create', { type: 30, amount: '2' });
    await who.client.ok('POST', '/api/v3/trade/pay/order', { orderSn: order.orderSn, paymentType: 90 });
    await open(page, `/pay/sandbox?orderSn=${order.orderSn}&return=${encodeURIComponent('//evil.example/x')}`);
    await waitForText(page, 'sandbox-amount', '¥2.00');
    await page.getByText('Test payment', { exact: true }).waitFor();
    await e2e.screenshot(page, 'sandbox-en');
    await page.getByTestId('sandbox-fail').click();
    await page.waitForURL((url) => url.pathname === '/wallet' && url.host === new URL(e2e.baseUrl).host);
    await waitForText(page, 'wallet-available', '¥12.50');
    const failed = await who.client.ok<OrderInfo>('GET', `/api/v3/order.detail?orderSn=${order.orderSn}`);
    expect(failed.status).toBe(3);

    await open(page, '/forum/partner-invite');
    await page.getByText('This site is free to join.').waitFor();
    await e2e.screenshot(page, 'partner-invite-public-en');
    expect(errors).toEqual([]);
  });
});
