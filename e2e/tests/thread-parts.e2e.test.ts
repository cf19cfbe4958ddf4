import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ThreadDetail } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** Thread parts through the editor: each part is added with its button, filled, published and read by others. */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function member() {
  const client = await ApiClient.register(e2e.baseUrl, uniqueName('p'), PASSWORD);
  return { client, token: client.session.accessToken };
}

async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

describe('thread parts', () => {
  it('a goods card: added in the editor, shown on the thread page to another member and marked in the list', async () => {
    const author = await member();
    const { page, context, errors } = await e2e.newPage();
    await signIn(context, author.token);
    await open(page, '/thread/post');
    const title = `好物 ${uniqueName('g')}`;
    await page.getByLabel('标题', { exact: true }).fill(title);
    await page.getByLabel('正文', { exact: true }).fill('这个键盘手感很好。');
    await page.getByTestId('part-add-104').click();
    const editor = page.getByTestId('part-editor-104');
    await editor.getByLabel('商品链接').fill('https://shop.example.com/item/1');
    await editor.getByLabel('商品名称').fill('机械键盘 87 键');
    await editor.getByLabel('价格').fill('299');
    await e2e.screenshot(page, 'parts-editor-goods');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${threadId}`);
    expect(stored.content.indexes['104']?.body).toMatchObject({ title: '机械键盘 87 键', price: '299.00' });

    const reader = await member();
    const other = await e2e.newPage();
    await signIn(other.context, reader.token);
    for (const locale of ['zh', 'en'] as const) {
      await other.context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
      await open(other.page, `/thread/${threadId}`);
      const card = other.page.getByTestId('goods-card');
      expect(await card.getAttribute('href')).toBe('https://shop.example.com/item/1');
      expect(await card.textContent()).toContain('¥299.00');
      expect(await card.textContent()).toContain(locale === 'zh' ? '查看商品' : 'View the product');
      await e2e.screenshot(other.page, `parts-thread-goods-${locale}`);
    }
    await open(other.page, '/');
    const listed = other.page.getByTestId('thread-card').filter({ hasText: title });
    await listed.getByTestId('part-marks').locator('[data-part="104"]').waitFor();
    expect(errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });
});
