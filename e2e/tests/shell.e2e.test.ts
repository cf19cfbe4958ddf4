import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api';
import { hydrated, openAsFirstEntry, useE2E } from '../support/harness';

/** The server-rendered head, the headers, search, Discover, footer, not-found page and layout switching. */
const e2e = useE2E();
const desktopOnly = e2e.device === 'desktop' ? it : it.skip;
const mobileOnly = e2e.device === 'mobile' ? it : it.skip;

describe('server rendering', () => {
  it('writes the head from the site settings into the raw HTML', async () => {
    const admin = await e2e.admin();
    await admin.settings({
      siteName: 'E2E & Friends',
      siteKeywords: 'e2e,forum',
      siteIntroduction: 'A site for "browser" tests',
      siteFavicon: '/static/favicon.svg?v=e2e',
      siteStat: '<script>window.__siteStat = "counted"</script>',
    });
    const response = await fetch(`${e2e.baseUrl}/`, { headers: { 'User-Agent': 'curl/8' } });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('<title>E2E &amp; Friends</title>');
    expect(html).toContain('<meta name="keywords" content="e2e,forum">');
    expect(html).toContain('<meta name="description" content="A site for &quot;browser&quot; tests">');
    expect(html).toContain('<link rel="icon" href="/static/favicon.svg?v=e2e">');
    // As saved, with no nonce: the response's Content-Security-Policy allows it by its hash.
    expect(html).toContain('<script>window.__siteStat = "counted"</script>');
    expect(html).not.toContain('nonce');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'[^;]* 'sha256-/);

    // The statistics snippet runs in the page.
    const { page } = await e2e.page();
    await page.goto('/');
    expect(await page.evaluate(() => (window as unknown as { __siteStat?: string }).__siteStat)).toBe('counted');
  });

  it('titles a site without a name 欢迎, pages adding their part before it', async () => {
    const admin = await e2e.admin();
    await admin.settings({ siteName: '' });
    try {
      expect(await (await fetch(`${e2e.baseUrl}/`)).text()).toContain('<title>欢迎</title>');
      expect(await (await fetch(`${e2e.baseUrl}/user/login`)).text()).toContain('<title>登录 - 欢迎</title>');
    } finally {
      await admin.settings({ siteName: 'E2E & Friends' });
    }
  });

  it("keeps a guest's page for a moment, a signed-in visitor's only as their groups', and forgets it on a write", async () => {
    const guest = () => fetch(`${e2e.baseUrl}/`, { headers: { 'User-Agent': 'curl/8' } });
    await guest();
    const again = await guest();
    expect(again.headers.get('x-guest-cache')).toBe('hit');
    expect(await again.text()).toContain('<title>E2E &amp; Friends</title>');

    const admin = await e2e.admin();
    const signedIn = await fetch(`${e2e.baseUrl}/`, {
      headers: { 'User-Agent': 'curl/8', Cookie: `access_token=${admin.token ?? ''}` },
    });
    expect(signedIn.status).toBe(200);
    // Never the guest's page: the page of the administrators' groups, rendered for them (group-render.ts).
    expect(signedIn.headers.get('x-guest-cache')).toBe('miss');
    expect(await signedIn.text()).toContain('"forGroups":true');
    const ownPage = await fetch(`${e2e.baseUrl}/my`, {
      headers: { 'User-Agent': 'curl/8', Cookie: `access_token=${admin.token ?? ''}` },
    });
    expect(ownPage.headers.get('x-guest-cache')).toBeNull();

    await admin.settings({ siteName: 'E2E Renamed' });
    try {
      const after = await guest();
      expect(after.headers.get('x-guest-cache')).toBe('miss');
      expect(await after.text()).toContain('<title>E2E Renamed</title>');
    } finally {
      await admin.settings({ siteName: 'E2E & Friends' });
    }
  });

  it('shows the real content to a reader without JavaScript', async () => {
    const { page } = await e2e.newPage({ javaScriptEnabled: false });
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.locator('header').first().isVisible()).resolves.toBe(true);
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.locator('footer').textContent()).toContain('Powered by Luntan');
    await e2e.screenshot(page, 'home-no-js');
  });

  it('answers HTTP 404 for an unknown path and for /404', async () => {
    for (const url of ['/no/such/page', '/404']) {
      const response = await fetch(e2e.baseUrl + url);
      expect(response.status, url).toBe(404);
      const html = await response.text();
      expect(html).toContain('资源不存在');
      expect(html).toContain('/static/404.svg');
    }
  });
});

describe('header', () => {
  desktopOnly(
    'desktop: logo, Home, Message and Discover lead to their pages; a guest sees Login/Register',
    async () => {
      const { page, errors } = await e2e.page();
      await page.goto('/search?keyword=x');
      await hydrated(page);
      const header = page.locator('header');
      await header.locator('.lt-header__logo').click();
      await page.waitForURL((url) => url.pathname === '/');
      await e2e.screenshot(page, 'home');

      await header.getByRole('link', { name: '发现' }).click();
      await page.waitForURL((url) => url.pathname === '/search');
      await header.getByRole('link', { name: '首页' }).click();
      await page.waitForURL((url) => url.pathname === '/');

      await header.getByRole('link', { name: '登录/注册' }).click();
      await page.waitForURL((url) => url.pathname === '/user/login');
      await header.getByRole('link', { name: /消息/ }).click();
      // The message centre needs a login: a guest lands on the login page.
      await page.waitForURL((url) => url.pathname === '/user/login');
      expect(errors).toEqual([]);
    },
  );

  mobileOnly('mobile: back, Home, Message and Personal Center', async () => {
    const { page, errors } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    await e2e.screenshot(page, 'home');
    const header = page.locator('header');
    await expect(header.getByRole('button', { name: '返回' }).isVisible()).resolves.toBe(true);
    expect(await header.getByRole('link', { name: '发现' }).count()).toBe(0);

    await header.getByRole('link', { name: '个人中心' }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    await header.getByRole('link', { name: '首页' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await header.getByRole('link', { name: /消息/ }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');

    // Back: one step back while there is history...
    await header.getByRole('button', { name: '返回' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(errors).toEqual([]);
  });

  mobileOnly('mobile: back goes home when the history holds a single entry', async () => {
    const { context } = await e2e.page();
    const page = await context.newPage();
    await openAsFirstEntry(page, e2e.baseUrl, '/search?keyword=alone');
    await hydrated(page);
    expect(await page.evaluate(() => window.history.length)).toBe(1);
    await page.locator('header').getByRole('button', { name: '返回' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  desktopOnly('the search box goes to /search?keyword= on Enter and on its icon', async () => {
    const { page } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    const box = page.getByRole('searchbox', { name: '搜索' });
    await box.fill('rock & roll #1');
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search');
    expect(new URL(page.url()).searchParams.get('keyword')).toBe('rock & roll #1');
    expect(await page.getByTestId('search-heading').textContent()).toContain('rock & roll #1');
    await e2e.screenshot(page, 'search');

    await box.fill('second');
    await page.getByRole('button', { name: '搜索' }).click();
    await page.waitForURL((url) => url.search === '?keyword=second');
  });

  mobileOnly('mobile: the search page shows the keyword', async () => {
    const { page } = await e2e.page();
    await page.goto('/search?keyword=' + encodeURIComponent('手机 搜索'));
    await hydrated(page);
    expect(await page.getByTestId('search-heading').textContent()).toContain('手机 搜索');
    await e2e.screenshot(page, 'search');
  });

  it('the search page has a search box in both layouts; on a phone the home page has one too', async () => {
    const { page, context, errors } = await e2e.page();
    await page.goto('/search');
    await hydrated(page);
    // Desktop: the header's box; mobile (whose header has none): the page's own.
    const box = page.getByRole('searchbox', { name: '搜索' }).filter({ visible: true });
    expect(await box.count()).toBe(1);
    await box.fill('蓝色 天空');
    await box.press('Enter');
    await page.getByTestId('search-heading').filter({ hasText: '蓝色 天空' }).waitFor();
    expect(await box.inputValue()).toBe('蓝色 天空');
    await e2e.screenshot(page, 'search-box');
    await box.fill('second');
    await page.getByRole('button', { name: '搜索' }).filter({ visible: true }).click();
    await page.waitForURL((url) => url.search === '?keyword=second');

    await page.goto('/');
    await hydrated(page);
    const homeBox = page.getByRole('searchbox', { name: '搜索' }).filter({ visible: true });
    expect(await homeBox.count()).toBe(1);
    await e2e.screenshot(page, 'home-search-box');
    await homeBox.fill('third');
    await homeBox.press('Enter');
    await page.waitForURL((url) => url.search === '?keyword=third');
    expect(errors).toEqual([]);

    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.goto('/search');
    await hydrated(page);
    expect(await page.getByRole('searchbox', { name: 'Search' }).filter({ visible: true }).count()).toBe(1);
    await e2e.screenshot(page, 'search-box-en');
  });

  desktopOnly('Discover shows only with the viewThreads permission', async () => {
    const admin = await e2e.admin();
    const guestGroup = 7;
    const { page } = await e2e.page();
    try {
      await admin.groupPermissions(guestGroup, ['thread.viewPosts']);
      await page.goto('/');
      await hydrated(page);
      expect(await page.locator('header').getByRole('link', { name: '发现' }).count()).toBe(0);
      await e2e.screenshot(page, 'home-without-discover');
    } finally {
      await admin.groupPermissions(guestGroup, ['viewThreads', 'thread.viewPosts']);
    }
    await page.goto('/');
    await hydrated(page);
    expect(await page.locator('header').getByRole('link', { name: '发现' }).count()).toBe(1);
  });
});

describe('footer', () => {
  it('shows the year and site name, the version, and the records when set', async () => {
    const admin = await e2e.admin();
    await admin.settings({ siteName: 'Footer Site', siteRecord: '', siteRecordCode: '' });
    const { page } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    const footer = page.locator('footer');
    const year = new Date().getFullYear();
    expect(await footer.getByTestId('footer-copyright').textContent()).toBe(`© ${year} Footer Site`);
    const site = await new ApiClient(e2e.baseUrl).ok<{ version: string }>('GET', '/api/siteinfo.v2');
    expect(await footer.getByTestId('footer-powered').textContent()).toContain(site.version);
    expect(await footer.getByTestId('footer-record').count()).toBe(0);
    expect(await footer.getByTestId('footer-record-code').count()).toBe(0);

    await admin.settings({ siteRecord: '京ICP备12345678号', siteRecordCode: '京公网安备 11010502030143号' });
    await page.reload();
    await hydrated(page);
    expect(await footer.getByTestId('footer-record').textContent()).toBe('京ICP备12345678号');
    const code = footer.getByTestId('footer-record-code');
    expect(await code.textContent()).toContain('京公网安备 11010502030143号');
    expect(await code.locator('img').getAttribute('src')).toBe('/static/police-badge.svg');
    expect(await code.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await e2e.screenshot(page, 'footer-records');
  });
});

describe('not-found page', () => {
  it('shows its texts, and its button goes back or home', async () => {
    const { page, context } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await hydrated(page);
    expect(await page.locator('h1').textContent()).toBe('资源不存在');
    expect(await page.locator('main').textContent()).toContain('可能已被删除、已更名或暂时不可用');
    expect(
      await page.locator('main img[src="/static/404.svg"]').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    await e2e.screenshot(page, 'not-found');
    await page.getByRole('button', { name: '返回上一页' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // A fresh tab has no history: the button goes to the site root.
    const fresh = await context.newPage();
    await openAsFirstEntry(fresh, e2e.baseUrl, '/404');
    await hydrated(fresh);
    expect(await fresh.evaluate(() => window.history.length)).toBe(1);
    await fresh.getByRole('button', { name: '返回上一页' }).click();
    await fresh.waitForURL((url) => url.pathname === '/');
  });

  it('speaks English with the locale cookie', async () => {
    const { page, context } = await e2e.page();
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.goto('/missing');
    await hydrated(page);
    expect(await page.locator('h1').textContent()).toBe('resource not found');
    expect(await page.getByRole('button', { name: 'go back to the previous page' }).count()).toBe(1);
    expect(await page.title()).toContain('resource not found');
    await e2e.screenshot(page, 'not-found-en');
  });
});

describe('layout switching', () => {
  it('follows the window width live (800 px rule)', async () => {
    const { page, errors } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    const layout = () => page.locator('[data-layout]').getAttribute('data-layout');
    if (e2e.device === 'desktop') {
      expect(await layout()).toBe('pc');
      await page.setViewportSize({ width: 799, height: 860 });
      await page.waitForSelector('[data-layout="h5"]');
      await page.setViewportSize({ width: 800, height: 860 });
      await page.waitForSelector('[data-layout="pc"]');
    } else {
      expect(await layout()).toBe('h5');
      // Wide but upright (not rotated): the desktop layout.
      await page.setViewportSize({ width: 900, height: 1200 });
      await page.waitForSelector('[data-layout="pc"]');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForSelector('[data-layout="h5"]');
    }
    expect(errors).toEqual([]);
  });

  mobileOnly('a phone turned sideways keeps the mobile layout', async () => {
    const { page } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    await page.setViewportSize({ width: 844, height: 390 });
    const angle = await page.evaluate(() => window.screen.orientation.angle);
    await page.waitForTimeout(300);
    const layout = await page.locator('[data-layout]').getAttribute('data-layout');
    expect(layout).toBe(angle === 90 || angle === 270 ? 'h5' : 'pc');
  });
});
