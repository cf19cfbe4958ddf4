import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** Sign-in pages, the Login/Register button, the login guard and return address, the user menu and log out. */
const e2e = useE2E();
const desktopOnly = e2e.device === 'desktop' ? it : it.skip;
const mobileOnly = e2e.device === 'mobile' ? it : it.skip;
const PASSWORD = 'e2e-Passw0rd';

async function newUser(nickname?: string) {
  const username = uniqueName('u');
  const client = await ApiClient.register(e2e.baseUrl, username, PASSWORD, nickname);
  return { username, client, token: client.session.accessToken, userId: client.userId };
}

/** Signs the browser context in by the HttpOnly cookie the server would set. */
async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
}

async function loginThroughForm(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('用户名', { exact: true }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
}

const jumpUrl = (page: Page) => page.evaluate(() => window.sessionStorage.getItem('__jump_url'));

describe('sign-in pages', () => {
  it('link to each other and show the server message in a toast on failure', async () => {
    const { page, errors } = await e2e.page();
    await page.goto('/user/login');
    await hydrated(page);
    expect(await page.title()).toContain('登录');
    await e2e.screenshot(page, 'login');
    await page.getByRole('link', { name: '立即注册' }).click();
    await page.waitForURL((url) => url.pathname === '/user/register');
    await e2e.screenshot(page, 'register');
    await page.getByRole('link', { name: '去登录' }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');

    const expected = await new ApiClient(e2e.baseUrl).call('POST', '/api/v3/users/username.login', {
      username: 'nobody-here',
      password: 'wrong-password',
    });
    expect(expected.Code).toBe(-7062);
    await loginThroughForm(page, 'nobody-here', 'wrong-password');
    const toast = page.locator('.lt-toast');
    await toast.waitFor();
    expect(await toast.textContent()).toContain(expected.Message);
    expect(await toast.getAttribute('data-type')).toBe('error');
    await page.locator('.lt-toast[data-phase="shown"]').waitFor();
    await page.waitForTimeout(250); // let the fade-in finish for the picture
    await e2e.screenshot(page, 'login-failed-toast');
    expect(page.url()).toContain('/user/login');
    expect(errors).toEqual([]);
  });

  it("shows the server's messages in the page's language, not the browser's", async () => {
    const { page, context, errors } = await e2e.newPage({
      locale: 'en-US',
      extraHTTPHeaders: { 'Accept-Language': 'en-US,en;q=0.9' },
    });
    await page.goto('/user/login');
    await hydrated(page);
    // The site's default language (zh): an English browser gets a Chinese page and Chinese messages.
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await loginThroughForm(page, 'nobody-here', 'wrong-password');
    await page.locator('.lt-toast[data-type="error"]', { hasText: '用户名或密码错误' }).waitFor();

    await page.getByRole('button', { name: 'English', exact: true }).click();
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.locator('.lt-toast[data-type="error"]', { hasText: 'wrong username or password' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');

    // And back: the choice is the page's, whatever the browser says.
    await page.getByRole('button', { name: '中文', exact: true }).click();
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.locator('.lt-toast[data-type="error"]', { hasText: '用户名或密码错误' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('registers a new user, who lands on the home page signed in', async () => {
    const { page, context } = await e2e.page();
    await page.goto('/user/register');
    await hydrated(page);
    const username = uniqueName('r');
    await page.getByLabel('用户名', { exact: true }).fill(username);
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByLabel('昵称', { exact: true }).fill('新朋友');
    await page.getByRole('button', { name: '注册' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const cookies = await context.cookies();
    expect(cookies.some((c) => c.name === 'access_token' && c.httpOnly)).toBe(true);
    expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeTruthy();
    if (e2e.device === 'desktop') {
      await page.locator('header').getByText('新朋友').waitFor();
      expect(await page.locator('header').getByRole('link', { name: '登录/注册' }).count()).toBe(0);
    }

    // The same username again: the server's message in a toast.
    const { page: second } = await e2e.page();
    await second.goto('/user/register');
    await hydrated(second);
    await second.getByLabel('用户名', { exact: true }).fill(username);
    await second.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await second.getByRole('button', { name: '注册' }).click();
    await second.locator('.lt-toast[data-type="error"]').waitFor();
    expect(await second.locator('.lt-toast').textContent()).toContain('用户名已存在');
  });

  it('forgot password on a site that sends neither mail nor SMS: no form, ask an administrator', async () => {
    const { page, context, errors } = await e2e.page();
    await page.goto('/user/login');
    await hydrated(page);
    await page.getByTestId('forgot-password').click();
    await page.waitForURL((url) => url.pathname === '/user/reset-password');
    await page.getByTestId('reset-no-way').filter({ hasText: '请联系站点管理员' }).waitFor();
    expect(await page.getByTestId('reset-by-email').count()).toBe(0);
    expect(await page.getByTestId('reset-sms-form').count()).toBe(0);
    await e2e.screenshot(page, 'reset-password-no-way-zh');

    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.goto('/user/reset-password');
    await hydrated(page);
    await page.getByTestId('reset-no-way').filter({ hasText: 'ask a site administrator' }).waitFor();
    await e2e.screenshot(page, 'reset-password-no-way-en');
    expect(errors).toEqual([]);
  });

  it('sends a signed-in user away from the login page', async () => {
    const { token } = await newUser();
    const { page, context } = await e2e.page();
    await signIn(context, token);
    const response = await page.goto('/user/login');
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

describe('login guard', () => {
  desktopOnly('the guest button goes to the login page', async () => {
    const { page } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('link', { name: '登录/注册' }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    expect(await jumpUrl(page)).toBeNull();
  });

  it('sends a guest from /my to the login page and back after login, clearing the saved address', async () => {
    const { username } = await newUser('Guarded');
    const { page } = await e2e.page();
    // The toast lasts 1.5 s: watch for it from the start.
    const toast = page.locator('.lt-toast', { hasText: '请先登录' }).waitFor({ timeout: 60_000 });
    await page.goto('/my');
    expect(new URL(page.url()).pathname).toBe('/user/login');
    await hydrated(page);
    expect(await jumpUrl(page)).toBe('/my');
    await toast;
    await loginThroughForm(page, username);
    await page.waitForURL((url) => url.pathname === '/my');
    expect(await page.getByTestId('my-name').textContent()).toBe('Guarded');
    expect(await jumpUrl(page)).toBeNull();
    await e2e.screenshot(page, 'my');
  });

  it('returns to a guarded route outside /my, with its query', async () => {
    const { username } = await newUser();
    const { page } = await e2e.page();
    await page.goto('/wallet?from=e2e');
    expect(new URL(page.url()).pathname).toBe('/user/login');
    await hydrated(page);
    expect(await jumpUrl(page)).toBe('/wallet?from=e2e');
    await loginThroughForm(page, username);
    await page.waitForURL((url) => url.pathname === '/wallet' && url.search === '?from=e2e');
    expect(await jumpUrl(page)).toBeNull();
  });

  it('guards while navigating inside the app too, and returns to the message centre', async () => {
    const { username } = await newUser();
    const { page } = await e2e.page();
    await page.goto('/');
    await hydrated(page);
    await page.locator('header').getByRole('link', { name: /消息/ }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    expect(await jumpUrl(page)).toBe('/message');
    await loginThroughForm(page, username);
    await page.waitForURL((url) => url.pathname === '/message');
    await page.getByRole('heading', { name: '消息中心' }).waitFor();
    await e2e.screenshot(page, 'message');
  });

  it('goes home after login when no address was saved', async () => {
    const { username } = await newUser();
    const { page } = await e2e.page();
    await page.goto('/user/login');
    await hydrated(page);
    await loginThroughForm(page, username);
    await page.waitForURL((url) => url.pathname === '/');
  });
});

describe('signed-in user', () => {
  desktopOnly('gets a hover menu with Personal Center and Log out', async () => {
    const { token } = await newUser('Hover');
    const { page, context, errors } = await e2e.page();
    await signIn(context, token);
    await page.goto('/');
    await hydrated(page);
    const header = page.locator('header');
    expect(await header.getByRole('link', { name: '登录/注册' }).count()).toBe(0);
    const trigger = header.getByRole('button', { name: '用户菜单' });
    await trigger.hover();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await page.waitForTimeout(250); // let the opening animation finish for the picture
    await e2e.screenshot(page, 'user-menu');
    await menu.getByRole('menuitem', { name: '个人中心' }).click();
    await page.waitForURL((url) => url.pathname === '/my');
    expect(await page.getByTestId('my-name').textContent()).toBe('Hover');

    await page.mouse.move(0, 500);
    await trigger.hover();
    await page.getByRole('menu').getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await header.getByRole('link', { name: '登录/注册' }).waitFor();
    expect((await context.cookies()).some((c) => c.name === 'access_token' && c.value)).toBe(false);
    expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();
    // The token was revoked on the server.
    const after = await new ApiClient(e2e.baseUrl, token).call<{ user: unknown }>('GET', '/api/v3/forum');
    expect(after.Data.user).toBeNull();
    expect(errors).toEqual([]);
  });

  mobileOnly('sees the personal centre and can log out from it', async () => {
    const { token, username } = await newUser('Phone');
    const { page, context } = await e2e.page();
    await signIn(context, token);
    await page.goto('/');
    await hydrated(page);
    await page.locator('header').getByRole('link', { name: '个人中心' }).click();
    await page.waitForURL((url) => url.pathname === '/my');
    expect(await page.getByTestId('my-name').textContent()).toBe('Phone');
    expect(await page.locator('main').textContent()).toContain(username);
    await e2e.screenshot(page, 'my');
    await page.getByTestId('my-logout').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('header').getByRole('link', { name: '个人中心' }).click();
    await page.waitForURL((url) => url.pathname === '/user/login');
  });
});
