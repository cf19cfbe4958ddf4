import type { SessionData } from '@luntan/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { mailedLink, startMailbox } from '../support/mailbox';

/**
 * Forgot password and e-mail verification end to end, through a real SMTP server in this process. The site sends
 * SMS too (to its log), so the forgot-password page offers both ways.
 */
const mailbox = await startMailbox();
const e2e = useE2E({
  serverEnv: { SMTP_URL: mailbox.url, MAIL_FROM: 'E2E <noreply@luntan.test>', SMS_PROVIDER: 'log' },
});
afterAll(() => mailbox.close());

const PASSWORD = 'e2e-Passw0rd';

/** A member registered with an address (and, with `verified`, its mailed link opened). */
async function member(verified: boolean) {
  const username = uniqueName('m');
  const email = `${username}@example.com`;
  const guest = new ApiClient(e2e.baseUrl);
  const session = await guest.ok<SessionData>('POST', '/api/v3/users/username.register', {
    username,
    password: PASSWORD,
    email,
  });
  if (verified) {
    const token = new URL(mailedLink(await mailbox.waitFor(email), '/user/verify-email')).searchParams.get('token');
    await guest.ok('POST', '/api/v3/users/email.verify', { token });
  }
  return { username, email, session };
}

async function useLanguage(context: BrowserContext, locale: 'zh' | 'en'): Promise<void> {
  await context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

describe('forgot password by e-mail', () => {
  it('mails a link from the login page; the link sets a new password; the new password logs in', async () => {
    const { username, email } = await member(true);
    const { page, errors } = await e2e.page();
    await open(page, '/user/login');
    await e2e.screenshot(page, 'mail-login-zh');
    await page.getByTestId('forgot-password').click();
    await page.waitForURL((url) => url.pathname === '/user/reset-password');
    await page.getByTestId('reset-by-email').waitFor();
    await e2e.screenshot(page, 'mail-forgot-zh');

    await page.getByLabel('用户名或邮箱').fill(username);
    await page.getByRole('button', { name: '发送重置链接' }).click();
    await page.getByTestId('reset-sent').waitFor();
    await e2e.screenshot(page, 'mail-forgot-sent-zh');

    const link = mailedLink(await mailbox.waitFor(email, 2), '/user/reset-password');
    await open(page, link.replace(/^https?:\/\/[^/]+/, ''));
    await page.getByTestId('reset-form').waitFor();
    await e2e.screenshot(page, 'mail-reset-form-zh');
    await page.getByLabel('新密码', { exact: true }).fill('brand-New-pass1');
    await page.getByLabel('确认新密码').fill('brand-New-pass1');
    await page.getByRole('button', { name: '保存新密码' }).click();
    await page.getByTestId('reset-done').waitFor();
    await e2e.screenshot(page, 'mail-reset-done-zh');

    await page.getByRole('link', { name: '去登录' }).first().click();
    await page.waitForURL((url) => url.pathname === '/user/login');
    await page.getByLabel('用户名或手机号', { exact: true }).fill(username);
    await page.getByLabel('密码', { exact: true }).fill('brand-New-pass1');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const forum = await page.evaluate(() => fetch('/api/v3/forum').then((r) => r.json()));
    expect(forum.Data.user.username).toBe(username);

    // The link worked once.
    await open(page, link.replace(/^https?:\/\/[^/]+/, ''));
    await page.getByLabel('新密码', { exact: true }).fill('another-Pass2');
    await page.getByLabel('确认新密码').fill('another-Pass2');
    await page.getByRole('button', { name: '保存新密码' }).click();
    await page.getByTestId('reset-expired').waitFor();
    expect(await page.getByTestId('reset-expired').textContent()).toContain('链接已失效');
    expect(errors).toEqual([]);
  });

  it('offers both ways as tabs when the site sends mail and SMS', async () => {
    const { page, errors } = await e2e.page();
    await open(page, '/user/reset-password');
    const tabs = page.getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(['通过邮箱', '通过手机号']);
    expect(await page.getByTestId('reset-way-email').getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('reset-by-email').waitFor();
    await e2e.screenshot(page, 'mail-forgot-both-zh');
    await page.getByTestId('reset-way-sms').click();
    await page.getByTestId('reset-sms-form').waitFor();
    expect(await page.getByTestId('reset-by-email').count()).toBe(0);
    await e2e.screenshot(page, 'mail-forgot-both-sms-zh');
    // Phone sign-in's "forgot password" opens on the SMS way.
    await open(page, '/user/reset-password?way=sms');
    await page.getByTestId('reset-sms-form').waitFor();
    expect(await page.getByTestId('reset-way-sms').getAttribute('aria-selected')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('speaks English on request', async () => {
    const { page, context, errors } = await e2e.page();
    await useLanguage(context, 'en');
    await open(page, '/user/reset-password');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Forgot your password');
    await e2e.screenshot(page, 'mail-forgot-en');
    await page.getByLabel('Username or email').fill('nobody-at-all');
    await page.getByRole('button', { name: 'Send a reset link' }).click();
    await page.getByTestId('reset-sent').waitFor();
    await open(page, '/user/reset-password?token=not-a-real-one');
    await e2e.screenshot(page, 'mail-reset-form-en');
    expect(errors).toEqual([]);
  });
});

describe('the e-mail address in the personal centre', () => {
  for (const locale of ['zh', 'en'] as const) {
    it(`binds a new address through its mailed link (${locale})`, async () => {
      const { email, session } = await member(false);
      const { page, context, errors } = await e2e.page();
      await useLanguage(context, locale);
      await context.addCookies([
        { name: 'access_token', value: session.accessToken, url: e2e.baseUrl, httpOnly: true },
      ]);
      await open(page, '/my?tab=settings');
      await page.getByTestId('email-current').waitFor();
      expect(await page.getByTestId('email-current').textContent()).toContain(email);
      await page.getByTestId('email-pending').waitFor();
      await e2e.screenshot(page, `mail-my-settings-${locale}`);

      const next = `next-${email}`;
      await page.locator('input[name="email"]').fill(next);
      await page.getByTestId('email-send').click();
      await page.locator('.lt-toast[data-type="success"]').waitFor();
      await page.getByTestId('email-pending').filter({ hasText: next }).waitFor();

      const link = mailedLink(await mailbox.waitFor(next), '/user/verify-email');
      await open(page, link.replace(/^https?:\/\/[^/]+/, ''));
      await page.getByTestId('verify-done').waitFor();
      expect(await page.getByTestId('verify-done').textContent()).toContain(next);
      await e2e.screenshot(page, `mail-verify-done-${locale}`);

      await open(page, link.replace(/^https?:\/\/[^/]+/, ''));
      await page.getByTestId('verify-failed').waitFor();
      await e2e.screenshot(page, `mail-verify-failed-${locale}`);

      await open(page, '/my?tab=settings');
      await page.getByTestId('email-current').filter({ hasText: next }).waitFor();
      await e2e.screenshot(page, `mail-my-verified-${locale}`);
      expect(errors).toEqual([]);
    });
  }
});
