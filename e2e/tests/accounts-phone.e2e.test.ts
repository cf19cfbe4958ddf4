import { randomInt } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SessionData, UserProfile } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** Phones and SMS: sign in by code, bind and change the number, the SMS password reset. Codes come from the log. */
// No wait between two codes to one number: these flows send several to one number within a minute.
const e2e = useE2E({ serverEnv: { SMS_PROVIDER: 'log', LOG_LEVEL: 'info', SMS_INTERVAL_SECONDS: '0' } });

const newMobile = () => `137${String(randomInt(0, 10 ** 8)).padStart(8, '0')}`;
const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(7)}`;

/**
 * The texts of the SMS the log provider wrote for `mobile` so far (one JSON line each), oldest first. Only whole
 * lines: the log arrives through a pipe in chunks, and the last line may be half there.
 */
function smsTo(mobile: string): string[] {
  const logs = e2e.server.logs();
  return logs
    .slice(0, logs.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.includes('"sms"') && line.includes(mobile))
    .flatMap((line) => {
      try {
        return [(JSON.parse(line) as { sms: { text: string } }).sms.text];
      } catch {
        return [];
      }
    });
}

/**
 * The code of the first SMS to `mobile` after the `seen` it had already received. The server's log reaches the test
 * through a pipe, a moment after the page sees its answer: without counting, a loaded machine hands back the
 * previous code (the bind code when the rebind code was asked for), and the next step waits for a page that never comes.
 */
async function codeFor(mobile: string, seen = 0): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const texts = smsTo(mobile);
    const code = texts.length > seen ? /\d{6}/.exec(texts[seen]!)?.[0] : undefined;
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no SMS with a code to ${mobile} after the ${seen} already seen, within 20 s`);
}

async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
}

/** Types the number, asks for the code (the countdown starts), types the code from the log. */
async function fillNumberAndCode(page: Page, type: string, mobile: string | null, label = '手机号'): Promise<void> {
  if (mobile) await page.getByLabel(label, { exact: true }).fill(mobile);
  const seen = smsTo(mobile ?? '').length;
  await page.getByTestId(`sms-send-${type}`).click();
  await page.getByTestId(`sms-send-${type}`).filter({ hasText: '秒后重发' }).waitFor();
  expect(await page.getByTestId(`sms-send-${type}`).isDisabled()).toBe(true);
  await page.getByLabel('验证码', { exact: true }).fill(await codeFor(mobile ?? '', seen));
}

describe('phone sign-in', () => {
  it('from the login page: number, code from the SMS, signed in as a new member named by the masked number', async () => {
    const { page, errors } = await e2e.page();
    await page.goto('/user/login');
    await hydrated(page);
    await page.getByTestId('to-phone-login').click();
    await page.waitForURL((url) => url.pathname === '/user/phone-login');
    // The title follows once the page's module has loaded.
    await expect.poll(() => page.title()).toContain('手机号登录');

    const mobile = newMobile();
    await page.getByLabel('手机号', { exact: true }).fill(mobile);
    await page.getByTestId('sms-send-login').click();
    await page.getByTestId('sms-send-login').filter({ hasText: '秒后重发' }).waitFor();
    await e2e.screenshot(page, 'phone-login');
    await page.getByLabel('验证码', { exact: true }).fill(await codeFor(mobile));
    await page.getByTestId('phone-login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('.lt-toast[data-type="success"]').waitFor();

    // The browser holds the session: the viewer is the new member.
    const me = await page.evaluate(async () => {
      const response = await fetch('/api/v3/forum');
      return ((await response.json()) as { Data: { user: { nickname: string; mobile: string } | null } }).Data.user;
    });
    expect(me).toMatchObject({ nickname: masked(mobile), mobile: masked(mobile) });
    expect(errors).toEqual([]);
  });

  it('a wrong code shows the server’s sentence and stays on the page', async () => {
    const { page } = await e2e.page();
    await page.goto('/user/phone-login');
    await hydrated(page);
    const mobile = newMobile();
    await fillNumberAndCode(page, 'login', mobile);
    const code = await codeFor(mobile, smsTo(mobile).length - 1);
    await page.getByLabel('验证码', { exact: true }).fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByTestId('phone-login-submit').click();
    await page.locator('.lt-toast[data-type="error"]', { hasText: '验证码错误' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/user/phone-login');
  });
});

/** A member made by a first SMS sign-in through the API: their number, session and generated username. */
async function phoneMember() {
  const guest = new ApiClient(e2e.baseUrl);
  const mobile = newMobile();
  await guest.ok('POST', '/api/v3/users/sms.send', { mobile, type: 'login' });
  const session = await guest.ok<SessionData>('POST', '/api/v3/users/sms.login', {
    mobile,
    code: await codeFor(mobile),
  });
  const client = new ApiClient(e2e.baseUrl, session.accessToken);
  const me = await client.ok<UserProfile>('GET', `/api/v3/user?userId=${session.userId}`);
  return { mobile, session, client, username: me.username };
}

describe('a phone member’s password and username', () => {
  it('sets a first password in the personal centre, then signs in with the number and that password', async () => {
    const m = await phoneMember();
    const { page, context, errors } = await e2e.page();
    await signIn(context, m.session.accessToken);
    await page.goto('/my?tab=settings');
    await hydrated(page);
    // The random password is nobody's: the first one needs no current password.
    await page.getByTestId('password-first').waitFor();
    await page.getByLabel('新密码', { exact: true }).fill('phone-Passw0rd');
    await page.getByLabel('确认新密码', { exact: true }).fill('phone-Passw0rd');
    await page.getByTestId('password-save').click();
    await page.locator('.lt-toast[data-type="success"]', { hasText: '密码已修改' }).waitFor();

    // Another browser, signed out.
    const { page: fresh, context: freshContext, errors: freshErrors } = await e2e.newPage();
    await fresh.goto('/user/login');
    await hydrated(fresh);
    await fresh.getByLabel('用户名或手机号', { exact: true }).fill(m.mobile);
    await fresh.getByLabel('密码', { exact: true }).fill('phone-Passw0rd');
    await e2e.screenshot(fresh, 'login-by-number');
    await fresh.getByRole('button', { name: '登录', exact: true }).click();
    await fresh.waitForURL((url) => url.pathname === '/');
    const me = await fresh.evaluate(async () => {
      const response = await fetch('/api/v3/forum');
      return ((await response.json()) as { Data: { user: { userId: number } | null } }).Data.user;
    });
    expect(me?.userId).toBe(m.session.userId);
    expect([...errors, ...freshErrors]).toEqual([]);
    await freshContext.close();
  });

  for (const locale of ['zh', 'en'] as const) {
    it(`chooses a username once in the personal centre (${locale})`, async () => {
      const m = await phoneMember();
      const { page, context, errors } = await e2e.page();
      await signIn(context, m.session.accessToken);
      if (locale === 'en') await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
      await page.goto('/my?tab=settings');
      await hydrated(page);
      expect(await page.getByTestId('settings-username').textContent()).toBe(m.username);
      await page.getByTestId('username-changeable').waitFor();
      await e2e.screenshot(page, `my-settings-username-${locale}`);

      const input = page.getByLabel(locale === 'zh' ? '新用户名' : 'New username', { exact: true });
      // A number is refused with the server's sentence; the form stays.
      await input.fill(newMobile());
      await page.getByTestId('username-save').click();
      const refusal = locale === 'zh' ? '用户名不能是手机号' : 'A username cannot be a mobile number';
      await page.locator('.lt-toast[data-type="error"]', { hasText: refusal }).waitFor();

      const chosen = uniqueName('c');
      await input.fill(chosen);
      await page.getByTestId('username-save').click();
      await page.getByTestId('settings-username').filter({ hasText: chosen }).waitFor();
      expect(await page.getByTestId('username-changeable').count()).toBe(0);
      expect(await page.getByTestId('username-save').count()).toBe(0);
      await e2e.screenshot(page, `my-settings-username-chosen-${locale}`);
      const me = await m.client.ok<UserProfile>('GET', `/api/v3/user?userId=${m.session.userId}`);
      expect(me).toMatchObject({ username: chosen, usernameChangeable: false });
      expect(errors).toEqual([]);
    });
  }
});

describe('binding and changing the number', () => {
  it('binds from the account settings, then changes it after verifying the old number', async () => {
    const client = await ApiClient.register(e2e.baseUrl, uniqueName('p'), 'e2e-Passw0rd');
    const { page, context, errors } = await e2e.page();
    await signIn(context, client.session.accessToken);
    await page.goto('/my?tab=settings');
    await hydrated(page);
    expect(await page.getByTestId('settings-mobile').textContent()).toBe('未绑定');
    await e2e.screenshot(page, 'my-settings-phone-none');
    await page.getByTestId('settings-phone-action').click();
    await page.waitForURL((url) => url.pathname === '/user/bind-phone');

    const first = newMobile();
    await fillNumberAndCode(page, 'bind', first);
    await e2e.screenshot(page, 'bind-phone');
    await page.getByTestId('bind-phone-submit').click();
    await page.waitForURL((url) => url.pathname === '/my');
    await page
      .getByTestId('settings-mobile')
      .filter({ hasText: masked(first) })
      .waitFor();
    await e2e.screenshot(page, 'my-settings-phone-bound');

    await page.getByTestId('settings-phone-action').click();
    await page.waitForURL((url) => url.pathname === '/user/rebind');
    expect(await page.getByTestId('phone-current').textContent()).toContain(masked(first));
    const seen = smsTo(first).length;
    await page.getByTestId('sms-send-verify').click();
    await page.getByTestId('sms-send-verify').filter({ hasText: '秒后重发' }).waitFor();
    await page.getByLabel('验证码', { exact: true }).fill(await codeFor(first, seen));
    await e2e.screenshot(page, 'rebind-verify');
    await page.getByTestId('rebind-next').click();
    await page.getByTestId('rebind-new-form').waitFor();
    const second = newMobile();
    await fillNumberAndCode(page, 'rebind', second, '新手机号');
    await e2e.screenshot(page, 'rebind-new');
    await page.getByTestId('rebind-submit').click();
    await page.waitForURL((url) => url.pathname === '/my');
    await page
      .getByTestId('settings-mobile')
      .filter({ hasText: masked(second) })
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('-8001 on posting sends the member to /user/bind-phone', async () => {
    const admin = await e2e.admin();
    const client = await ApiClient.register(e2e.baseUrl, uniqueName('q'), 'e2e-Passw0rd');
    const group = await admin.call<{ permissions: string[] }>('GET', '/api/group.resource.v2?id=10&include=permission');
    const held = group.Data.permissions;
    await admin.call('POST', '/api/permission.v2', { groupId: 10, permissions: [...held, 'publishNeedBindPhone'] });
    try {
      const { page, context } = await e2e.page();
      await signIn(context, client.session.accessToken);
      await page.goto('/thread/post');
      await hydrated(page);
      await page.getByLabel('标题', { exact: true }).fill('需要手机号');
      await page.getByLabel('正文', { exact: true }).fill('正文内容');
      // The server answers -8001; the shared error handler goes to the bind page.
      await page.getByTestId('publish').click();
      await page.waitForURL((url) => url.pathname === '/user/bind-phone');
    } finally {
      await admin.call('POST', '/api/permission.v2', { groupId: 10, permissions: held });
    }
  });
});

describe('password reset by SMS', () => {
  it('forgot password on a site with SMS and no mail offers the SMS way, which resets the password', async () => {
    const username = uniqueName('f');
    const client = await ApiClient.register(e2e.baseUrl, username, 'e2e-Passw0rd');
    const mobile = newMobile();
    await client.call('POST', '/api/v3/users/sms.send', { mobile, type: 'bind' });
    await client.call('POST', '/api/v3/users/sms.bind', { mobile, code: await codeFor(mobile) });

    const { page, errors } = await e2e.page();
    await page.goto('/user/login');
    await hydrated(page);
    await page.getByTestId('forgot-password').click();
    await page.waitForURL((url) => url.pathname === '/user/reset-password');
    await page.getByTestId('reset-sms-form').waitFor();
    // The only way the site has: no e-mail form, no tabs, no word of a missing way.
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('通过手机号');
    expect(await page.getByTestId('reset-by-email').count()).toBe(0);
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.getByTestId('reset-no-way').count()).toBe(0);
    await fillNumberAndCode(page, 'reset_pwd', mobile);
    await page.getByLabel('新密码', { exact: true }).fill('new-Passw0rd');
    await page.getByLabel('确认新密码', { exact: true }).fill('new-Passw0rd');
    await e2e.screenshot(page, 'reset-password-sms-only');
    await page.getByTestId('reset-sms-submit').click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    const renewed = await new ApiClient(e2e.baseUrl).call('POST', '/api/v3/users/username.login', {
      username,
      password: 'new-Passw0rd',
    });
    expect(renewed.Code).toBe(0);
    expect(errors).toEqual([]);
  });

  it('speaks English', async () => {
    const { page, context, errors } = await e2e.page();
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.goto('/user/reset-password');
    await hydrated(page);
    await page.getByTestId('reset-sms-form').waitFor();
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('By mobile number');
    await e2e.screenshot(page, 'reset-password-sms-only-en');
    expect(errors).toEqual([]);
  });

  it('/user/reset-password/sms sets a new password with the code; the old one stops working', async () => {
    const username = uniqueName('r');
    const client = await ApiClient.register(e2e.baseUrl, username, 'e2e-Passw0rd');
    const mobile = newMobile();
    await client.call('POST', '/api/v3/users/sms.send', { mobile, type: 'bind' });
    await client.call('POST', '/api/v3/users/sms.bind', { mobile, code: await codeFor(mobile) });

    const { page, errors } = await e2e.page();
    await page.goto('/user/reset-password/sms');
    await hydrated(page);
    await fillNumberAndCode(page, 'reset_pwd', mobile);
    await page.getByLabel('新密码', { exact: true }).fill('new-Passw0rd');
    await page.getByLabel('确认新密码', { exact: true }).fill('new-Passw0rd');
    await e2e.screenshot(page, 'reset-password-sms');
    await page.getByTestId('reset-sms-submit').click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    const old = await new ApiClient(e2e.baseUrl).call('POST', '/api/v3/users/username.login', {
      username,
      password: 'e2e-Passw0rd',
    });
    expect(old.Code).toBe(-7062);
    expect(errors).toEqual([]);
  });
});
