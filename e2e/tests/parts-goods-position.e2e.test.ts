import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadDetail } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/**
 * The goods card filled from a product page (goods/analysis, "识别"), and a thread's position with its OpenStreetMap
 * link. The product page is served by this file on 127.0.0.1, so the server runs with ALLOW_PRIVATE_FETCH=1.
 */
const e2e = useE2E({ serverEnv: { ALLOW_PRIVATE_FETCH: '1' } });
const PASSWORD = 'e2e-Passw0rd';

/** A 1×1 PNG for the product's picture. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PRODUCT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<meta property="og:title" content="降噪耳机 Pro">
<meta property="og:image" content="/headphones.png">
<script type="application/ld+json">{"@type":"Product","name":"降噪耳机 Pro","offers":{"price":"1299.00"}}</script>
</head><body>product</body></html>`;

let shop: http.Server;
let shopOrigin = '';

beforeAll(async () => {
  shop = http.createServer((req, res) => {
    if (req.url === '/item/42') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PRODUCT_PAGE);
    } else if (req.url === '/headphones.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PIXEL);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});
afterAll(async () => {
  shop.closeAllConnections();
  await new Promise((resolve) => shop.close(resolve));
});

async function member() {
  const client = await ApiClient.register(e2e.baseUrl, uniqueName('gp'), PASSWORD);
  return { client, token: client.session.accessToken };
}

async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

describe('goods fetched from its page, and a position', () => {
  it('fills the card with 识别, publishes with a typed position; the thread shows the card and the OSM link', async () => {
    const author = await member();
    const { page, context, errors } = await e2e.newPage();
    await signIn(context, author.token);
    await open(page, '/thread/post');
    const title = `耳机 ${uniqueName('t')}`;
    await page.getByLabel('标题', { exact: true }).fill(title);
    await page.getByLabel('正文', { exact: true }).fill('在人民广场买的。');
    await page.getByTestId('part-add-104').click();
    const editor = page.getByTestId('part-editor-104');

    // A page that cannot be read says so, and the fields stay to be typed by hand.
    await editor.getByLabel('商品链接').fill(`${shopOrigin}/missing`);
    await editor.getByTestId('goods-fetch').click();
    const problem = editor.getByTestId('goods-fetch-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toContain('商品页回应了 404');

    await editor.getByLabel('商品链接').fill(`${shopOrigin}/item/42`);
    await editor.getByTestId('goods-fetch').click();
    await expect.poll(() => editor.getByLabel('商品名称').inputValue()).toBe('降噪耳机 Pro');
    expect(await editor.getByLabel('价格').inputValue()).toBe('1299.00');
    expect(await editor.getByLabel('商品图片地址').inputValue()).toBe(`${shopOrigin}/headphones.png`);
    await problem.waitFor({ state: 'detached' });

    await page.getByTestId('position-open').click();
    const position = page.getByTestId('position-editor');
    await position.getByLabel('地点名称').fill('人民广场');
    await position.getByLabel('详细地址（可选）').fill('上海市黄浦区');
    await position.getByLabel('纬度').fill('31.2304');
    await position.getByLabel('经度').fill('121.4737');
    await e2e.screenshot(page, 'parts-goods-position-editor-zh');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${threadId}`);
    expect(stored.content.indexes['104']?.body).toMatchObject({ title: '降噪耳机 Pro', price: '1299.00' });
    expect(stored.position).toEqual({
      location: '人民广场',
      address: '上海市黄浦区',
      latitude: 31.2304,
      longitude: 121.4737,
    });

    const reader = await member();
    const other = await e2e.newPage();
    await signIn(other.context, reader.token);
    for (const locale of ['zh', 'en'] as const) {
      await other.context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
      await open(other.page, `/thread/${threadId}`);
      const card = other.page.getByTestId('goods-card');
      expect(await card.getAttribute('href')).toBe(`${shopOrigin}/item/42`);
      expect(await card.textContent()).toContain('¥1299.00');
      const link = other.page.getByTestId('thread-position');
      expect(await link.getAttribute('href')).toBe(
        'https://www.openstreetmap.org/?mlat=31.2304&mlon=121.4737#map=16/31.2304/121.4737',
      );
      expect(await link.getAttribute('rel')).toBe('noopener nofollow');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.textContent()).toContain('人民广场');
      expect(await link.getAttribute('title')).toBe(
        locale === 'zh' ? '在 OpenStreetMap 上查看 人民广场' : 'View 人民广场 on OpenStreetMap',
      );
      await e2e.screenshot(other.page, `parts-goods-position-thread-${locale}`);
    }
    await open(other.page, '/');
    const listed = other.page.getByTestId('thread-card').filter({ hasText: title });
    expect(await listed.getByTestId('thread-position').textContent()).toContain('人民广场');

    // The editor in English: the fetch button and the position fields.
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await open(page, '/thread/post');
    await page.getByTestId('part-add-104').click();
    expect(await page.getByTestId('goods-fetch').textContent()).toContain('Fetch details');
    expect(await page.getByTestId('position-open').textContent()).toContain('Location');
    await page.getByTestId('position-open').click();
    await page.getByTestId('position-editor').getByLabel('Place name').waitFor();
    expect(await page.getByTestId('position-locate').textContent()).toContain('Use my location');
    await e2e.screenshot(page, 'parts-goods-position-editor-en');
    expect(errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });
});
