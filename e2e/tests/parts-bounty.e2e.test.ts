import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { BountyPart, OrderInfo, ThreadDetail } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** A bounty question (悬赏, part 107): posted through the editor, answered, awarded; the answerer's wallet shows it. */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';
const PAY_PASSWORD = '246813';

async function member() {
  const client = await ApiClient.register(e2e.baseUrl, uniqueName('b'), PASSWORD);
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

/** Money for the author, as the wallet tests recharge: the order, the sandbox payment, its checkout's decision. */
async function recharge(client: ApiClient, amount: string): Promise<void> {
  const order = await client.ok<OrderInfo>('POST', '/api/v3/order.create', { type: 30, amount });
  await client.ok('POST', '/api/v3/trade/pay/order', { orderSn: order.orderSn, paymentType: 90 });
  await client.ok('POST', '/api/v3/pay/sandbox/complete', { orderSn: order.orderSn, outcome: 'paid' });
}

/** A datetime-local value `days` ahead (the browser and the test share the machine's time zone). */
function localAhead(days: number): string {
  const d = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

describe('bounty questions', () => {
  it('the author posts a bounty in the editor, awards an answer, and the answerer’s wallet shows it', async () => {
    const author = await member();
    await recharge(author.client, '50');
    await author.client.ok('POST', '/api/v3/users/pay-password/reset', {
      password: PASSWORD,
      payPassword: PAY_PASSWORD,
    });

    const { page, context, errors } = await e2e.newPage();
    await signIn(context, author.token);
    await open(page, '/thread/post');
    const title = `悬赏 ${uniqueName('q')}`;
    await page.getByLabel('标题', { exact: true }).fill(title);
    await page.getByLabel('正文', { exact: true }).fill('如何让代理只对某些域名生效？');
    await page.getByTestId('part-add-107').click();
    const editor = page.getByTestId('part-editor-107');
    await editor.getByLabel('悬赏金额').fill('20');
    await editor.getByLabel('截止时间').fill(localAhead(3));
    await e2e.screenshot(page, 'parts-editor-bounty');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${threadId}`);
    expect(stored.content.indexes['107']?.body).toMatchObject({
      amount: '20.00',
      remaining: '20.00',
      isExpired: false,
    });

    const answerer = await member();
    await answerer.client.ok('POST', '/api/v3/posts.create', { id: threadId, content: '用 PAC 文件按域名分流即可。' });

    await open(page, `/thread/${threadId}`);
    const card = page.getByTestId('bounty-card');
    expect(await card.textContent()).toContain('¥20.00');
    const reply = page.getByTestId('reply').filter({ hasText: 'PAC' });
    await reply.getByTestId('bounty-award').click();
    const dialog = page.getByTestId('bounty-award-dialog');
    await dialog.getByLabel('采纳金额').fill('8');
    await dialog.getByLabel('支付密码').fill(PAY_PASSWORD);
    await e2e.screenshot(page, 'parts-bounty-award-dialog');
    await page.getByTestId('bounty-award-submit').click();
    await reply.getByTestId('bounty-awarded-mark').waitFor();
    await expect.poll(async () => (await page.getByTestId('bounty-remaining').textContent())?.trim()).toBe('¥12.00');
    expect(await reply.getByTestId('bounty-awarded-mark').textContent()).toContain('8.00');
    await e2e.screenshot(page, 'parts-thread-bounty-zh');
    const after = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${threadId}`);
    expect((after.content.indexes['107']?.body as BountyPart).awards).toMatchObject([{ amount: '8.00' }]);

    // The answerer reads it, in both languages, and finds the money in the wallet.
    const other = await e2e.newPage();
    for (const locale of ['zh', 'en'] as const) {
      await signIn(other.context, answerer.token, locale);
      await open(other.page, `/thread/${threadId}`);
      const seen = other.page.getByTestId('bounty-card');
      expect(await seen.textContent()).toContain(locale === 'zh' ? '悬赏问答' : 'Bounty question');
      expect(await seen.textContent()).toContain('¥12.00');
      expect(await other.page.getByTestId('bounty-award').count()).toBe(0);
      await e2e.screenshot(other.page, `parts-thread-bounty-answerer-${locale}`);
    }
    await open(other.page, '/wallet');
    expect(await other.page.getByTestId('wallet-available').textContent()).toContain('8.00');
    await e2e.screenshot(other.page, 'parts-bounty-wallet-en');
    expect(errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });
});
