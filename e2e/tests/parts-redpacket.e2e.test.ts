import type { OrderInfo, ThreadDetail, TradePayResult, WalletInfo } from '@luntan/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** A red packet (part 106): paid from the wallet through the editor, one packet for a member who replies. */
const e2e = useE2E({ serverEnv: { PAYMENT_SANDBOX: '1' } });
const PASSWORD = 'e2e-Passw0rd';
const PAY_PASSWORD = '135790';

async function member() {
  const client = await ApiClient.register(e2e.baseUrl, uniqueName('r'), PASSWORD);
  return { client, token: client.session.accessToken };
}

async function signIn(context: BrowserContext, token: string, locale: 'zh' | 'en' = 'zh'): Promise<void> {
  await context.addCookies([
    { name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true },
    { name: 'locale', value: locale, url: e2e.baseUrl },
  ]);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

describe('red packet part', () => {
  it('the author pays a red packet in the editor; a member who replies gets a packet and sees it', async () => {
    const author = await member();
    await author.client.ok('POST', '/api/v3/users/pay-password/reset', {
      password: PASSWORD,
      payPassword: PAY_PASSWORD,
    });
    const order = await author.client.ok<OrderInfo>('POST', '/api/v3/order.create', { type: 30, amount: '10.00' });
    await author.client.ok<TradePayResult>('POST', '/api/v3/trade/pay/order', {
      orderSn: order.orderSn,
      paymentType: 90,
    });
    await author.client.ok('POST', '/api/v3/pay/sandbox/complete', { orderSn: order.orderSn, outcome: 'paid' });

    const { page, context, errors } = await e2e.newPage();
    await signIn(context, author.token);
    await open(page, '/thread/post');
    await page.getByLabel('标题', { exact: true }).fill(`红包 ${uniqueName('t')}`);
    await page.getByLabel('正文', { exact: true }).fill('回复就有红包。');
    await page.getByTestId('part-add-106').click();
    const editor = page.getByTestId('part-editor-106');
    await editor.getByLabel('红包个数').fill('2');
    await editor.getByLabel('单个金额').fill('1.50');
    await editor.getByLabel('支付密码').fill(PAY_PASSWORD);
    await expect.poll(async () => editor.getByTestId('red-packet-total').textContent()).toContain('¥3.00');
    await e2e.screenshot(page, 'parts-editor-redpacket');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${threadId}`);
    expect(stored.content.indexes['106']?.body).toMatchObject({ number: 2, money: '3.00', remainNumber: 2 });
    const wallet = await author.client.ok<WalletInfo>('GET', '/api/v3/wallet/user');
    expect(wallet).toMatchObject({ availableAmount: '7.00', freezeAmount: '3.00' });
    await page.getByTestId('red-packet-card').waitFor();
    expect(await page.getByTestId('red-packet-left').textContent()).toContain('2/2');

    const reader = await member();
    const other = await e2e.newPage();
    await signIn(other.context, reader.token);
    await open(other.page, `/thread/${threadId}`);
    expect(await other.page.getByTestId('red-packet-hint').textContent()).toContain('回复本帖即可领取红包');
    await e2e.screenshot(other.page, 'parts-thread-redpacket-before-zh');
    await other.page.getByTestId('reply-box').getByRole('textbox').fill('谢谢老板！');
    await other.page.getByTestId('reply-box').getByRole('button', { name: '回复' }).click();
    await other.page.getByTestId('reply').filter({ hasText: '谢谢老板！' }).waitFor();
    await expect
      .poll(
        async () =>
          (await other.page
            .getByTestId('red-packet-mine')
            .textContent()
            .catch(() => '')) ?? '',
        {
          timeout: 30_000,
        },
      )
      .toContain('你领到了 ¥1.50');
    await e2e.screenshot(other.page, 'parts-thread-redpacket-zh');

    await other.context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await open(other.page, `/thread/${threadId}`);
    expect(await other.page.getByTestId('red-packet-mine').textContent()).toContain('You got ¥1.50');
    expect(await other.page.getByTestId('red-packet-left').textContent()).toContain('1/2 left');
    expect(await other.page.getByTestId('red-packet-receivers').textContent()).toContain('¥1.50');
    await e2e.screenshot(other.page, 'parts-thread-redpacket-en');
    expect(errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });
});
