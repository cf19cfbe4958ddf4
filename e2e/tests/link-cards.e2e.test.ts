import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ThreadDetail } from '@luntan/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** A link alone on its line becomes a card once the server has read the page (issue 26, part 6). */
const e2e = useE2E({ serverEnv: { ALLOW_PRIVATE_FETCH: '1' } });
const PASSWORD = 'e2e-Passw0rd';

let site: Server;
let origin = '';

beforeAll(async () => {
  const cover = await sharp({ create: { width: 800, height: 420, channels: 3, background: '#2563eb' } })
    .png()
    .toBuffer();
  site = createServer((req, res) => {
    if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(cover);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html><head><meta charset="utf-8">' +
        '<meta property="og:site_name" content="哔哩哔哩">' +
        '<meta property="og:title" content="【科普】数据库索引是怎么工作的">' +
        '<meta property="og:description" content="用十分钟讲清楚 B+ 树，以及为什么按时间戳翻页更快。">' +
        '<meta property="og:image" content="/cover.png"></head><body></body></html>',
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

describe('link cards', () => {
  for (const locale of ['zh', 'en'] as const) {
    it(`shows a link alone on its line as a card, a link in a sentence as a link (${locale})`, async () => {
      const author = await ApiClient.register(e2e.baseUrl, uniqueName('l'), PASSWORD);
      const url = `${origin}/video/${locale}`;
      const thread = await author.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
        categoryId: 1,
        title: '推荐一个视频',
        content: { text: `讲得很清楚：\n${url}\n\n原文在 ${origin}/page 这里。` },
      });
      // The server reads the page after the post is written, then renders the post again.
      await expect
        .poll(
          async () =>
            (await author.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${thread.threadId}`)).content.html,
          { timeout: 20_000 },
        )
        .toContain('lt-onebox');

      const { page, context, errors } = await e2e.newPage();
      if (locale === 'en') await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
      await page.goto(`/thread/${thread.threadId}`);
      await hydrated(page);
      const card = page.locator('a.lt-onebox');
      await card.waitFor();
      expect(await card.getAttribute('href')).toBe(url);
      expect(await card.locator('.lt-onebox__title').textContent()).toBe('【科普】数据库索引是怎么工作的');
      expect(await card.locator('.lt-onebox__site').textContent()).toBe('哔哩哔哩');
      const image = card.locator('img.lt-onebox__image');
      expect(await image.getAttribute('src')).toMatch(/^\/uploads\/previews\/[0-9a-f]{32}\.webp$/);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);
      // The link in a sentence stays a link.
      expect(await page.locator(`a[href="${origin}/page"]`).count()).toBe(1);
      await e2e.screenshot(page, `link-card-${locale}`);
      expect(errors).toEqual([]);
    });
  }
});
