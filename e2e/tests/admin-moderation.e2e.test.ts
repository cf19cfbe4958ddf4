import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { adminKit } from '../support/admin';

/** The back office: titles, stop words, closing the site, review, sign-in fields, notification templates. */
const e2e = useE2E();
const { signIn, asAdmin } = adminKit(e2e);

describe('back office', () => {
  it('titles the back office not found for guests and members, in the raw HTML and after hydration', async () => {
    const admin = await e2e.admin();
    const siteName = `标题站${uniqueName('t')}`;
    await admin.settings({ siteName });
    const notFoundTitle = `资源不存在 - ${siteName}`;
    const member = await ApiClient.register(e2e.baseUrl, uniqueName('m'), 'e2e-Passw0rd');
    const cookie = { Cookie: `access_token=${member.session.accessToken}` };
    for (const [url, headers] of [
      ['/admin', {}],
      ['/admin/users', {}],
      ['/admin', cookie],
      ['/admin/groups/7/permissions', cookie],
    ] as const) {
      const raw = await (await fetch(e2e.baseUrl + url, { headers })).text();
      expect(raw, url).toContain(`<title>${notFoundTitle}</title>`);
    }
    const titled = (page: Page, title: string) =>
      page.waitForFunction((expected) => document.title === expected, title, { timeout: 5000 });

    const { page: guest } = await e2e.newPage();
    await guest.goto('/admin');
    await hydrated(guest);
    await titled(guest, notFoundTitle);
    await guest.waitForTimeout(300);
    expect(await guest.title()).toBe(notFoundTitle);

    const { page: english, context: englishContext } = await e2e.newPage();
    await englishContext.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await english.goto('/admin/stop-words');
    await hydrated(english);
    await titled(english, `resource not found - ${siteName}`);
    await e2e.screenshot(english, 'admin-not-found-en');

    const { page, context } = await e2e.newPage();
    await signIn(context, member.session.accessToken);
    await page.goto('/admin/users');
    await hydrated(page);
    await page.getByText('资源不存在').first().waitFor();
    await titled(page, notFoundTitle);
    await page.waitForTimeout(300);
    expect(await page.title()).toBe(notFoundTitle);
    await e2e.screenshot(page, 'admin-not-found');

    // The administrator still sees the section's title.
    const { page: adminPage } = await asAdmin();
    await adminPage.goto('/admin/users');
    await hydrated(adminPage);
    await titled(adminPage, `用户管理 - ${siteName}`);
  });

  it('imports stop words, which are enforced on posting at once', async () => {
    const { page, errors } = await asAdmin();
    await page.goto('/admin/stop-words');
    await hydrated(page);
    const word = `违禁${uniqueName('w')}`;
    await page.getByLabel('每行一条', { exact: true }).fill(`${word}={BANNED}\n\n好词=妙词`);
    await page.getByTestId('stop-words-import').click();
    await page.locator('.lt-toast[data-type="success"]').filter({ hasText: '新增 2 条' }).waitFor();
    await page.getByTestId('stop-word-row').filter({ hasText: word }).waitFor();
    await e2e.screenshot(page, 'admin-stop-words');
    const member = await ApiClient.register(e2e.baseUrl, uniqueName('p'), 'e2e-Passw0rd');
    const refused = await member.call('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: '普通标题',
      content: { text: `这句话里藏着${word}呢` },
    });
    expect(refused.Code).toBe(-4006);
    expect(refused.Message).toContain(word);
    expect(errors).toEqual([]);
  });

  it('closes the site: visitors see the notice and the API refuses them; the administrator carries on', async () => {
    const admin = await e2e.admin();
    await admin.settings({ siteClose: true, siteCloseMsg: '升级中，十分钟后回来' });
    try {
      const { page } = await e2e.newPage();
      await page.goto('/');
      await hydrated(page);
      await page.getByTestId('site-closed').getByText('升级中，十分钟后回来').waitFor();
      await e2e.screenshot(page, 'site-closed');
      const guest = await new ApiClient(e2e.baseUrl).call('GET', '/api/v3/thread.list');
      expect(guest.Code).toBe(-3005);
      const { page: adminPage } = await asAdmin();
      await adminPage.goto('/');
      await hydrated(adminPage);
      expect(await adminPage.getByTestId('site-closed').count()).toBe(0);
    } finally {
      await admin.settings({ siteClose: false });
    }
  });

  it('holds a thread with a {MOD} word for review; approving it publishes it', async () => {
    const admin = await e2e.admin();
    const word = `审核${uniqueName('r')}`;
    await admin.ok('POST', '/api/stop-words/batch.v2', {
      data: { type: 'stop-words', words: [`${word}={MOD}`], overwrite: true },
    });
    const member = await ApiClient.register(e2e.baseUrl, uniqueName('h'), 'e2e-Passw0rd');
    const title = `需要审核的主题 ${word}`;
    const held = await member.ok<{ threadId: number; isApproved: boolean }>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title,
      content: { text: '正文' },
    });
    expect(held.isApproved).toBe(false);
    const guest = new ApiClient(e2e.baseUrl);
    const before = await guest.ok<{ pageData: Array<{ threadId: number }> }>('GET', '/api/v3/thread.list?perPage=50');
    expect(before.pageData.some((t) => t.threadId === held.threadId)).toBe(false);

    const { page, errors } = await asAdmin();
    await page.goto('/admin/review');
    await hydrated(page);
    const item = page.locator(`[data-testid="review-item"][data-id="${held.threadId}"]`);
    await item.waitFor();
    await e2e.screenshot(page, 'admin-review');
    await item.getByRole('button', { name: '通过' }).click();
    await item.waitFor({ state: 'detached' });
    const after = await guest.ok<{ pageData: Array<{ threadId: number }> }>('GET', '/api/v3/thread.list?perPage=50');
    expect(after.pageData.some((t) => t.threadId === held.threadId)).toBe(true);

    // Several at once: tick, then approve what is ticked.
    const second = await member.ok<{ threadId: number }>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: `第二个 ${word}`,
      content: { text: '正文' },
    });
    await page.reload();
    await hydrated(page);
    const secondItem = page.locator(`[data-testid="review-item"][data-id="${second.threadId}"]`);
    await secondItem.getByRole('checkbox').check();
    await page.getByTestId('review-approve-selected').click();
    await secondItem.waitFor({ state: 'detached' });
    const last = await guest.ok<{ pageData: Array<{ threadId: number }> }>('GET', '/api/v3/thread.list?perPage=50');
    expect(last.pageData.some((t) => t.threadId === second.threadId)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('holds a private message with a {MOD} word; approving it under 私信 delivers it', async () => {
    const admin = await e2e.admin();
    const word = `私审${uniqueName('d')}`;
    await admin.ok('POST', '/api/stop-words/batch.v2', {
      data: { type: 'stop-words', words: [`${word}=|||{MOD}|`], overwrite: true },
    });
    const alice = await ApiClient.register(e2e.baseUrl, uniqueName('a'), 'e2e-Passw0rd');
    const bob = await ApiClient.register(e2e.baseUrl, uniqueName('b'), 'e2e-Passw0rd');
    const sent = await alice.ok<{ dialogId: number; id: number }>('POST', '/api/v3/dialog.create', {
      recipientUserId: bob.userId,
      messageText: `带有${word}的私信`,
    });
    const bobSees = async () =>
      (
        await bob.ok<{ pageData: Array<{ id: number }> }>('GET', `/api/v3/dialog/message?dialogId=${sent.dialogId}`)
      ).pageData.map((m) => m.id);
    expect(await bobSees()).not.toContain(sent.id);

    const { page, errors } = await asAdmin();
    await page.goto('/admin/review?type=dialog');
    await hydrated(page);
    const item = page.locator(`[data-testid="review-item"][data-id="${sent.id}"]`);
    await item.getByText(`带有${word}的私信`).waitFor();
    await e2e.screenshot(page, 'admin-review-dialog');
    await item.getByRole('button', { name: '通过' }).click();
    await item.waitFor({ state: 'detached' });
    expect(await bobSees()).toContain(sent.id);
    expect(errors).toEqual([]);
  });

  it('sends a user banned meanwhile to /user/status, with the reason', async () => {
    const admin = await e2e.admin();
    const member = await ApiClient.register(e2e.baseUrl, uniqueName('s'), 'e2e-Passw0rd');
    const thread = await admin.ok<{ threadId: number }>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: '点赞会被拒绝',
      content: { text: '正文' },
    });
    const { page, context, errors } = await e2e.newPage();
    await signIn(context, member.session.accessToken);
    await page.goto(`/thread/${thread.threadId}`);
    await hydrated(page);
    const moved = page.waitForURL((url) => url.pathname === '/user/status');
    await admin.ok('POST', '/api/backAdmin/users/update.user', { id: member.userId, status: 1, reason: '多次违规' });
    // The ban notice arrives live and may move the page at once; otherwise the next call (the like) does.
    await page
      .getByTestId('thread-like')
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await moved;
    const status = page.getByTestId('user-status');
    await status.getByText('账号已被禁用').waitFor();
    await status.getByText('多次违规').waitFor();
    await e2e.screenshot(page, 'user-status');
    expect(errors.filter((e) => !e.includes('-4009'))).toEqual([]);
  });

  it('asks for sign-in fields at registration, and sends users who owe them to /user/supplementary', async () => {
    const { page, errors, admin } = await asAdmin();
    await page.goto('/admin/signin-fields');
    await hydrated(page);
    const name = `真实姓名${uniqueName('f')}`.slice(0, 20);
    await page.getByLabel('字段名称', { exact: true }).fill(name);
    await page.locator('form').filter({ hasText: '新建字段' }).getByLabel('必填').check();
    await page.getByTestId('signin-field-create').click();
    const row = page.getByTestId('signin-field-row').filter({ hasText: name });
    await row.waitFor();
    await e2e.screenshot(page, 'admin-signin-fields');
    const fieldId = Number(await row.getAttribute('data-field-id'));
    try {
      // Registration shows the field and refuses to go on without it.
      const { page: guest, errors: guestErrors } = await e2e.newPage();
      await guest.goto('/user/register');
      await hydrated(guest);
      const username = uniqueName('r');
      await guest.getByLabel('用户名', { exact: true }).fill(username);
      await guest.getByLabel('密码', { exact: true }).fill('e2e-Passw0rd');
      await guest.getByRole('button', { name: '注册' }).click();
      await guest.locator('.lt-toast[data-type="warning"]').filter({ hasText: name }).waitFor();
      await guest.getByLabel(`${name} *`).fill('张三');
      await guest.getByRole('button', { name: '注册' }).click();
      await guest.waitForURL((url) => url.pathname === '/');
      const registered = await admin.ok<{ pageData: Array<{ userId: number; status: number }> }>(
        'GET',
        `/api/backAdmin/users?filter[username]=${username}`,
      );
      expect(registered.pageData[0]?.status).toBe(0);
      expect(guestErrors).toEqual([]);

      // Registered without answers (an older client): status 10, sent to fill them in.
      const owing = await ApiClient.register(e2e.baseUrl, uniqueName('o'), 'e2e-Passw0rd');
      expect((await owing.call('GET', '/api/v3/thread.list')).Code).toBe(-3007);
      const { page: user, context } = await e2e.newPage();
      await signIn(context, owing.session.accessToken);
      await user.goto('/');
      await user.waitForURL((url) => url.pathname === '/user/supplementary');
      await hydrated(user);
      await user.getByLabel(`${name} *`).fill('李四');
      await e2e.screenshot(user, 'supplementary');
      await user.getByTestId('supplementary-submit').click();
      await user.waitForURL((url) => url.pathname === '/');
      expect((await owing.call('GET', '/api/v3/thread.list')).Code).toBe(0);
    } finally {
      await admin.ok('POST', '/api/admin/signinfields.update.v2', { id: fieldId, status: -1 });
    }
    expect(errors).toEqual([]);
  });

  it('edits a notification template with a live preview, and switches it off', async () => {
    const { page, errors, admin } = await asAdmin();
    await page.goto('/admin/templates?name=' + encodeURIComponent('新用户注册通知'));
    await hydrated(page);
    const row = page.getByTestId('template-row').filter({ hasText: '新用户注册通知' });
    await row.getByRole('button', { name: '编辑' }).click();
    const editor = row.getByTestId('template-editor').first();
    await editor.waitFor();
    await editor.getByLabel('标题', { exact: true }).fill('欢迎 {username} 加入 {sitename}');
    await editor
      .getByTestId('template-preview')
      .getByText(/欢迎 【.+】 加入 【.+】/)
      .waitFor();
    await editor.getByLabel('启用').uncheck();
    await editor.getByTestId('template-save').click();
    await page.locator('.lt-toast[data-type="success"]').waitFor();
    await e2e.screenshot(page, 'admin-templates');
    const detail = await admin.ok<Array<{ type: number; title: string; status: number }>>(
      'GET',
      '/api/notification.v2/tpl/detail?typeName=' + encodeURIComponent('新用户注册通知'),
    );
    const site = detail.find((d) => d.type === 0)!;
    expect(site.title).toBe('欢迎 {username} 加入 {sitename}');
    expect(site.status).toBe(0);
    expect(errors).toEqual([]);
  });
});
