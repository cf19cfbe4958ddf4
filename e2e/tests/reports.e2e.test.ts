import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { GroupId, type ThreadDetail } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** Reports, end to end: a member reports a thread, the administrator handles it, the member is told. */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function member() {
  const username = uniqueName('r');
  const client = await ApiClient.register(e2e.baseUrl, username, PASSWORD);
  return { username, client, token: client.session.accessToken, id: client.userId };
}

async function signIn(context: BrowserContext, token: string, locale: 'zh' | 'en' = 'zh'): Promise<void> {
  await context.clearCookies();
  await context.addCookies([
    { name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true },
    { name: 'locale', value: locale, url: e2e.baseUrl },
  ]);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

async function toastSays(page: Page, text: string): Promise<void> {
  await page.locator('.lt-toast', { hasText: text }).first().waitFor();
}

describe('reports', () => {
  it('a member reports a thread; the administrator handles it; the member sees the outcome', async () => {
    const author = await member();
    const reporter = await member();
    const title = `举报测试 ${uniqueName('t')}`;
    const thread = await author.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title,
      content: { text: '加微信买东西，便宜出售。' },
    });
    const { page, context, errors } = await e2e.page();

    // The member reports the thread from its page.
    await signIn(context, reporter.token);
    await open(page, `/thread/${thread.threadId}`);
    await page.getByTestId('report-thread').click();
    const dialog = page.getByTestId('report-dialog');
    await dialog.waitFor();
    await page.getByLabel('垃圾广告').check();
    await page.getByLabel('补充说明（选填）').fill('帖子里留了微信号');
    await e2e.screenshot(page, 'report-dialog-zh');
    await page.getByTestId('report-submit').click();
    await toastSays(page, '举报已提交');
    // A second report of the same thread is refused with the server's sentence.
    await page.getByTestId('report-thread').click();
    await page.getByLabel('垃圾广告').check();
    await page.getByTestId('report-submit').click();
    await toastSays(page, '你已举报过');
    await page.keyboard.press('Escape');

    // The administrator handles it in the back office, with a remark.
    const admin = await e2e.admin();
    await signIn(context, admin.token!);
    await open(page, '/admin/reports');
    const item = page.getByTestId('report-item').filter({ hasText: title });
    await item.waitFor();
    expect(await item.getByTestId('report-reason').textContent()).toContain('垃圾广告：帖子里留了微信号');
    await e2e.screenshot(page, 'admin-reports-zh');
    await page.getByLabel('处理备注（选填，会告知举报人）').fill('已删除该主题');
    await item.getByTestId('report-handle').click();
    await toastSays(page, '已处理');
    await item.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '已处理', exact: true }).click();
    await page.getByTestId('report-item').filter({ hasText: title }).waitFor();

    // The reporter finds the outcome among the account notices.
    await signIn(context, reporter.token);
    await open(page, '/message?type=account');
    const notice = page.getByTestId('notice').filter({ hasText: title });
    await notice.waitFor();
    const text = await notice.textContent();
    expect(text).toContain('已处理');
    expect(text).toContain('已删除该主题');
    await e2e.screenshot(page, 'report-notice-zh');
    expect(errors).toEqual([]);
  });

  it('looks right in English: the dialog, the back office, a reply and a user page', async () => {
    const author = await member();
    const reporter = await member();
    const title = `Report test ${uniqueName('t')}`;
    const thread = await author.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title,
      content: { text: 'Buy cheap watches here.' },
    });
    await author.client.ok('POST', '/api/v3/posts.create', { id: thread.threadId, content: 'A spammy reply' });
    const { page, context, errors } = await e2e.page();
    await signIn(context, reporter.token, 'en');
    await open(page, `/thread/${thread.threadId}`);
    // The replies are read again once the page knows the viewer: let that settle before opening a dialog in one.
    await page.waitForLoadState('networkidle');
    await page.getByTestId('report-post').first().click();
    await page.getByLabel('Abuse or harassment').check();
    await e2e.screenshot(page, 'report-dialog-en');
    await page.getByTestId('report-submit').click();
    await toastSays(page, 'Report sent');
    await open(page, `/user/${author.id}`);
    await page.getByTestId('report-user').click();
    await page.getByLabel('Spam or advertising').check();
    await page.getByTestId('report-submit').click();
    await toastSays(page, 'Report sent');

    const admin = await e2e.admin();
    await signIn(context, admin.token!, 'en');
    await open(page, '/admin/reports');
    await page.getByTestId('report-item').filter({ hasText: author.username }).first().waitFor();
    await e2e.screenshot(page, 'admin-reports-en');
    // Ignore both at once.
    for (const row of await page.getByTestId('report-item').all()) {
      const body = await row.textContent();
      if (body?.includes(author.username) || body?.includes(title)) await row.getByRole('checkbox').check();
    }
    await page.getByRole('button', { name: /Ignore selected \(2\)/ }).click();
    await toastSays(page, 'Ignored');
    expect(errors).toEqual([]);
  });
});

describe('invitations, agreements and the captcha', () => {
  it('a member invites a newcomer, who accepts the agreements and passes the captcha to register', async () => {
    const inviter = await member();
    const admin = await e2e.admin();
    const perms = await admin.ok<{ permissions: string[] }>(
      'GET',
      `/api/group.resource.v2?id=${GroupId.MEMBER}&include=permission`,
    );
    await admin.groupPermissions(GroupId.MEMBER, [...perms.permissions, 'other.canInviteUserScale']);
    await admin.ok('POST', '/api/settings.v2', {
      data: [
        { key: 'registerCaptcha', value: true, tag: 'default' },
        { key: 'registerAgreementOpen', value: true, tag: 'agreement' },
        { key: 'registerAgreement', value: '一、遵守法律法规。\n二、尊重他人。', tag: 'agreement' },
        { key: 'privacyAgreement', value: 'We keep only what the forum needs.', tag: 'agreement' },
      ],
    });
    try {
      const { page, context, errors } = await e2e.page();
      for (const locale of ['zh', 'en'] as const) {
        // The newcomer of the last round is signed in (its token kept by the page): sign them out first.
        if (page.url().startsWith(e2e.baseUrl)) await page.evaluate(() => window.localStorage.clear());
        await signIn(context, inviter.token, locale);
        await open(page, '/my');
        await page.getByTestId('invite-create').click();
        const link = await page.getByTestId('invite-link').inputValue();
        expect(link).toMatch(/\/user\/register\?inviteCode=[0-9a-f]{32}$/);
        await e2e.screenshot(page, `my-invite-${locale}`);

        // The newcomer opens the link signed out.
        await context.clearCookies();
        await context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
        await open(page, link.replace(e2e.baseUrl, ''));
        await page.getByTestId('invite-notice').waitFor();
        await page.locator('[data-testid="captcha"][data-state="ready"]').waitFor({ timeout: 60_000 });
        await e2e.screenshot(page, `register-invite-${locale}`);
        const username = uniqueName('n');
        await page.getByLabel(locale === 'zh' ? '用户名' : 'Username', { exact: true }).fill(username);
        await page.getByLabel(locale === 'zh' ? '密码' : 'Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: locale === 'zh' ? '注册' : 'Register', exact: true }).click();
        await toastSays(page, locale === 'zh' ? '请先阅读并同意' : 'Please read and accept');
        await page.getByTestId('agreement-accept').check();
        await page.getByRole('button', { name: locale === 'zh' ? '注册' : 'Register', exact: true }).click();
        await page.waitForURL((url) => !url.pathname.startsWith('/user/register'));
        await open(page, '/user/agreement?type=register');
        await e2e.screenshot(page, `agreement-${locale}`);
      }
      const invited = await inviter.client.ok<{ totalCount: number }>('GET', '/api/v3/invite.users.list');
      expect(invited.totalCount).toBe(2);
      expect(errors).toEqual([]);
    } finally {
      await admin.groupPermissions(GroupId.MEMBER, perms.permissions);
      await admin.ok('POST', '/api/settings.v2', {
        data: [
          { key: 'registerCaptcha', value: false, tag: 'default' },
          { key: 'registerAgreementOpen', value: false, tag: 'agreement' },
        ],
      });
    }
  });
});
