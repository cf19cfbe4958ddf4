import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/**
 * The installable app and Web Push (issue 26, part 5): the manifest the page links and its icons, the service worker
 * taking the page over, the offline page in the page's language, and the push section of /my. Service workers
 * belong to a browser context, so each test that needs one starts from a fresh context (e2e.newPage()).
 */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

type PushPreferences = Record<'reply' | 'mention' | 'like' | 'message' | 'financial', boolean> & { devices: number };

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

/** Waits until the page's service worker is active, then reloads once so that it controls the page. */
async function controlledByServiceWorker(page: Page): Promise<void> {
  expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.scriptURL ?? ''))).toMatch(
    /\/sw\.js$/,
  );
  await page.reload();
  await hydrated(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);
}

describe('the installable app', () => {
  it('links a manifest with the forum’s name and icons that load as PNG', async () => {
    const { page, errors } = await e2e.page();
    await open(page, '/');
    const manifest = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
      if (!link) return null;
      const response = await fetch(link.href);
      return {
        href: link.href,
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        body: (await response.json()) as {
          name: string;
          short_name: string;
          start_url: string;
          display: string;
          icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
        },
      };
    });
    expect(manifest).not.toBeNull();
    expect(new URL(manifest!.href).pathname).toBe('/manifest.webmanifest');
    expect(manifest!.status).toBe(200);
    expect(manifest!.type).toContain('application/manifest+json');
    expect(manifest!.body.name.length).toBeGreaterThan(0);
    expect(manifest!.body.short_name.length).toBeGreaterThan(0);
    expect(manifest!.body).toMatchObject({ start_url: '/', display: 'standalone' });
    expect(manifest!.body.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    // Each icon, resolved against the manifest's address as a browser does, answers a PNG of its size.
    const icons = await page.evaluate(
      async ({ base, srcs }) =>
        Promise.all(
          srcs.map(async (src) => {
            const response = await fetch(new URL(src, base));
            const bitmap = await createImageBitmap(await response.blob());
            return {
              status: response.status,
              type: response.headers.get('content-type') ?? '',
              size: `${bitmap.width}x${bitmap.height}`,
            };
          }),
        ),
      { base: manifest!.href, srcs: manifest!.body.icons.map((icon) => icon.src) },
    );
    expect(icons).toEqual(manifest!.body.icons.map((icon) => ({ status: 200, type: 'image/png', size: icon.sizes })));
    expect(errors).toEqual([]);
  });

  for (const locale of ['zh', 'en'] as const) {
    it(`shows the offline page in the page's language when the network is gone, and pages again once back (${locale})`, async () => {
      const text =
        locale === 'zh'
          ? { title: '网络已断开', retry: '重试', lang: 'zh-CN', search: '搜索' }
          : { title: 'You are offline', retry: 'Try again', lang: 'en', search: 'Search' };
      const { page, context, errors } = await e2e.newPage();
      // Before the worker installs: it keeps the offline page in the language of the visitor it installed for.
      if (locale === 'en') await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
      await open(page, '/');
      await controlledByServiceWorker(page);

      await context.setOffline(true);
      await page.goto('/search');
      const offline = page.getByTestId('offline-page');
      await offline.waitFor();
      expect(await offline.getByRole('heading').textContent()).toBe(text.title);
      expect(await offline.getByRole('link').textContent()).toBe(text.retry);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(text.lang);
      await e2e.screenshot(page, `pwa-offline-${locale}`);

      // Back online, the offline page's button brings the site back (the home page), and any page loads again.
      await context.setOffline(false);
      await offline.getByRole('link').click();
      await page.waitForURL((url) => url.pathname === '/');
      await hydrated(page);
      await open(page, '/search');
      expect(await page.getByTestId('offline-page').count()).toBe(0);
      expect(await page.title()).toContain(text.search);
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      // What the browser logged while it could not reach the server (the page's live stream, its polls) is not an
      // error of the site; nothing else may be.
      expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|Network Error/.test(e))).toEqual([]);
    });
  }
});

describe('push notifications in /my', () => {
  it('says how to allow notifications when the browser refuses them', async () => {
    const member = await ApiClient.register(e2e.baseUrl, uniqueName('p'), PASSWORD);
    // No permission granted: Chromium answers the request with 'denied', as after a visitor's "Block".
    const { page, context, errors } = await e2e.newPage();
    await context.addCookies([
      { name: 'access_token', value: member.session.accessToken, url: e2e.baseUrl, httpOnly: true },
    ]);
    await open(page, '/my?tab=settings');
    const section = page.getByTestId('push-settings');
    const state = section.getByTestId('push-state');
    await expect.poll(() => state.getAttribute('data-state')).toBe('off');
    await section.getByTestId('push-on').click();
    await expect.poll(() => state.getAttribute('data-state')).toBe('denied');
    expect(await state.textContent()).toContain('浏览器已禁止本站的通知');
    expect(await section.getByTestId('push-denied').textContent()).toContain('网站设置');
    expect(await section.getByTestId('push-on').count()).toBe(0);
    // After a reload the page reads the refusal from the browser at once.
    await open(page, '/my?tab=settings');
    await expect.poll(() => page.getByTestId('push-state').getAttribute('data-state')).toBe('denied');
    await page.getByTestId('push-denied').scrollIntoViewIfNeeded();
    await e2e.screenshot(page, 'pwa-my-push-denied');
    expect(errors).toEqual([]);
  });

  for (const locale of ['zh', 'en'] as const) {
    it(`turns push on for this device (or says why it could not) and saves the switches (${locale})`, async () => {
      const text =
        locale === 'zh'
          ? { title: '推送通知', off: '这台设备未开启推送', failed: '浏览器没能向推送服务登记这台设备', like: '点赞' }
          : {
              title: 'Push notifications',
              off: 'Push is off for this device',
              failed: 'The browser could not register this device with its push service',
              like: 'Likes',
            };
      const member = await ApiClient.register(e2e.baseUrl, uniqueName('p'), PASSWORD, '推送的人');
      const preferences = () => member.ok<PushPreferences>('GET', '/api/v3/push/preferences');
      const { page, context, errors } = await e2e.newPage();
      await context.addCookies([
        { name: 'access_token', value: member.session.accessToken, url: e2e.baseUrl, httpOnly: true },
        ...(locale === 'en' ? [{ name: 'locale', value: 'en', url: e2e.baseUrl }] : []),
      ]);
      await context.grantPermissions(['notifications'], { origin: e2e.baseUrl });
      await open(page, '/my?tab=settings');
      const section = page.getByTestId('push-settings');
      await section.getByRole('heading', { name: text.title }).waitFor();
      const state = section.getByTestId('push-state');
      await expect.poll(() => state.getAttribute('data-state')).toBe('off');
      expect(await state.textContent()).toContain(text.off);
      await expect.poll(() => section.getByTestId('push-devices').getAttribute('data-count')).toBe('0');
      await section.scrollIntoViewIfNeeded();
      await e2e.screenshot(page, `pwa-my-push-${locale}`);

      // Headless Chromium on a machine without a push service may refuse the subscription (AbortError, "push
      // service error"): then the section must say so in words and stay usable. Either outcome is checked as it is.
      await section.getByTestId('push-on').click();
      const error = section.getByTestId('push-error');
      await expect
        .poll(async () => ((await error.count()) > 0 ? 'error' : await state.getAttribute('data-state')))
        .toMatch(/^(on|error)$/);
      if ((await error.count()) > 0) {
        const said = (await error.textContent()) ?? '';
        console.info(`[pwa ${e2e.device} ${locale}] push could not be turned on: ${said}`);
        expect(said).toContain(text.failed);
        expect(await state.getAttribute('data-state')).toBe('off');
        expect(await section.getByTestId('push-on').isEnabled()).toBe(true);
        expect((await preferences()).devices).toBe(0);
        await error.scrollIntoViewIfNeeded();
        await e2e.screenshot(page, `pwa-my-push-error-${locale}`);
      } else {
        console.info(`[pwa ${e2e.device} ${locale}] push turned on`);
        await expect.poll(async () => (await preferences()).devices).toBe(1);
        await expect.poll(() => section.getByTestId('push-devices').getAttribute('data-count')).toBe('1');
        await section.getByTestId('push-off').click();
        await expect.poll(() => state.getAttribute('data-state')).toBe('off');
        await expect.poll(async () => (await preferences()).devices).toBe(0);
      }

      // The switches are the member's, saved on change: turning likes off holds across a reload and in the API.
      expect(await preferences()).toMatchObject({
        reply: true,
        mention: true,
        like: true,
        message: true,
        financial: true,
      });
      const like = section.getByTestId('push-kind-like');
      expect(await section.getByRole('switch', { name: text.like }).isChecked()).toBe(true);
      await like.click({ force: true });
      await expect.poll(() => like.isChecked()).toBe(false);
      await expect.poll(async () => (await preferences()).like).toBe(false);
      await open(page, '/my?tab=settings');
      await expect.poll(() => page.getByTestId('push-kind-like').isChecked()).toBe(false);
      expect(await page.getByTestId('push-kind-reply').isChecked()).toBe(true);
      expect(await preferences()).toMatchObject({
        reply: true,
        mention: true,
        like: false,
        message: true,
        financial: true,
      });
      // Chromium's own line when a private (Playwright) context asks for a subscription: the browser's, not the site's.
      expect(errors.filter((e) => !/does not support the Push API in incognito mode/.test(e))).toEqual([]);
    });
  }
});
