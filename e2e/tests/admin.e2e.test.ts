import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { ADMIN } from '../support/server';

/** The back office: only for administrators; site settings, categories, the permission matrix. */
const e2e = useE2E();
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SAQkAURSDVsZkF98SF2M8/sAAOhY+T5O6AQuwviK7kHdJ3YAFWF+RXci7pG7AAqyvyC7kXVI3YAHWV2QX8i6pG7AA6yuyC3mX1A1YgPUV2YW8S+oGLMD6iuxC3iV1AxZgfUV2Ie+SugELsL4iu5B3Sd2AxwN+rJ5lAAkHD0kAAAAASUVORK5CYII=',
  'base64',
);

async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
}

async function asAdmin(): Promise<{ page: Page; errors: string[]; admin: ApiClient }> {
  const admin = await e2e.admin();
  const { page, context, errors } = await e2e.newPage();
  const session = await new ApiClient(e2e.baseUrl).ok<{ accessToken: string }>(
    'POST',
    '/api/v3/users/username.login',
    ADMIN,
  );
  await signIn(context, session.accessToken);
  // The back office asks in its own dialog: a browser dialog (window.confirm) is a defect.
  page.on('dialog', (dialog) => {
    errors.push(`browser dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, errors, admin };
}

describe('back office', () => {
  it('is not found for guests and members, in the raw HTML too', async () => {
    const guest = await fetch(`${e2e.baseUrl}/admin`);
    expect(guest.status).toBe(404);
    const member = await ApiClient.register(e2e.baseUrl, uniqueName('m'), 'e2e-Passw0rd');
    const { page, context } = await e2e.newPage();
    await signIn(context, member.session.accessToken);
    const response = await page.goto('/admin/groups');
    expect(response?.status()).toBe(404);
    await hydrated(page);
    await page.getByText('资源不存在').first().waitFor();
  });

  it('changes the site settings, and the public pages show them at once', async () => {
    const { page, errors } = await asAdmin();
    await page.goto('/admin');
    await hydrated(page);
    const name = `站点${uniqueName('s')}`;
    await page.getByLabel('站点名称', { exact: true }).fill(name);
    await page.getByLabel('站点介绍', { exact: true }).fill('后台改过的介绍');
    await page.getByTestId('settings-save').click();
    await page.locator('.lt-toast[data-type="success"]').waitFor();
    await page.locator('[data-testid="site-image-logo"] input[type=file]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.locator('[data-testid="site-image-logo"] img').waitFor();
    await e2e.screenshot(page, 'admin-settings');

    // The public home page, without a reload of the app: header logo and banner follow.
    await page.getByRole('link', { name: '首页' }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name }).waitFor();
    expect(await page.title()).toBe(name);
    const raw = await (await fetch(`${e2e.baseUrl}/`)).text();
    expect(raw).toContain(`<title>${name}</title>`);
    expect(raw).toContain('后台改过的介绍');
    expect(errors).toEqual([]);
  });

  it('creates, renames and deletes categories (moving threads)', async () => {
    const { page, errors, admin } = await asAdmin();
    await page.goto('/admin/categories');
    await hydrated(page);
    const name = `分类${uniqueName('c')}`.slice(0, 20);
    await page.getByLabel('新分类名称', { exact: true }).fill(name);
    await page.getByTestId('category-create').click();
    const row = page.getByTestId('category-row').filter({ has: page.locator(`input[value="${name}"]`) });
    await row.waitFor();
    const id = Number(await row.getAttribute('data-category-id'));
    await admin.ok('POST', '/api/v3/thread.create', {
      categoryId: id,
      title: '要搬家的主题',
      content: { text: '内容' },
    });
    await page.reload();
    await hydrated(page);
    const current = page.locator(`[data-testid="category-row"][data-category-id="${id}"]`);
    await current.getByLabel('名称', { exact: true }).fill(`${name}改`);
    await current.getByRole('button', { name: '保存' }).click();
    await page.locator('.lt-toast[data-type="success"]').waitFor();
    await e2e.screenshot(page, 'admin-categories');
    // Holding a thread, it can only go with a target for its threads.
    const fresh = page.locator(`[data-testid="category-row"][data-category-id="${id}"]`);
    expect(await fresh.getByRole('button', { name: '删除' }).isDisabled()).toBe(true);
    await fresh.getByLabel('主题移到…').selectOption({ value: '1' });
    await fresh.getByRole('button', { name: '删除' }).click();
    const asked = page.getByRole('dialog', { name: '确认删除' });
    await asked.getByText(`${name}改`).waitFor();
    await asked.getByTestId('confirm-ok').click();
    await page.locator(`[data-testid="category-row"][data-category-id="${id}"]`).waitFor({ state: 'detached' });
    const categories = await admin.ok<Array<{ categoryId: number }>>('GET', '/api/v3/categories');
    expect(categories.some((c) => c.categoryId === id)).toBe(false);
    expect(errors).toEqual([]);
  });

  it('edits a group permission matrix, globally and per category', async () => {
    const { page, errors, admin } = await asAdmin();
    await page.goto('/admin/groups');
    await hydrated(page);
    await e2e.screenshot(page, 'admin-groups');
    await page.locator('[data-testid="group-row"][data-group-id="7"]').getByRole('link', { name: '设置权限' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/groups/7/permissions');
    const cell = page.locator('input[data-permission="category1.thread.reply"]');
    await cell.check();
    await page.getByTestId('permissions-save').click();
    await page.locator('.lt-toast[data-type="success"]').waitFor();
    await e2e.screenshot(page, 'admin-permissions');
    const group = await admin.ok<{ permissions: string[] }>('GET', '/api/group.resource.v2?id=7&include=permission');
    expect(group.permissions).toContain('category1.thread.reply');
    expect(errors).toEqual([]);
  });

  it('creates a group, edits it, and deletes it (confirmed)', async () => {
    const { page, errors, admin } = await asAdmin();
    await page.goto('/admin/groups');
    await hydrated(page);
    const name = `组${uniqueName('g')}`.slice(0, 20);
    await page.getByLabel('新用户组名称', { exact: true }).fill(name);
    await page.getByTestId('group-create').click();
    const row = page.getByTestId('group-row').filter({ has: page.locator(`input[value="${name}"]`) });
    await row.waitFor();
    const id = Number(await row.getAttribute('data-group-id'));
    await row.getByLabel('分成比例').fill('3');
    // The save's own answer, not a success toast: the creation's toast may still be on screen.
    const answer = page.waitForResponse((r) => r.url().includes('/api/groups/batchupdate.v2'));
    await page.getByTestId('groups-save').click();
    expect(((await (await answer).json()) as { Code: number }).Code).toBe(0);
    const saved = await admin.ok<{ scale: number }>('GET', `/api/group.resource.v2?id=${id}`);
    expect(saved.scale).toBe(3);
    // The administrator, guest and default groups cannot be selected for deletion.
    for (const locked of [1, 7, 10]) {
      expect(
        await page
          .locator(`[data-testid="group-row"][data-group-id="${locked}"] input[type=checkbox]`)
          .first()
          .isDisabled(),
      ).toBe(true);
    }
    await page.locator(`[data-testid="group-row"][data-group-id="${id}"] input[type=checkbox]`).first().check();
    await page.getByTestId('groups-delete').click();
    await page.getByRole('dialog', { name: '确认删除' }).getByTestId('confirm-ok').click();
    await page.locator(`[data-testid="group-row"][data-group-id="${id}"]`).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('bans a user in its own dialog (never the administrator), who then reads the reason on /user/status', async () => {
    const { page, errors } = await asAdmin();
    const native: string[] = [];
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog) => {
      native.push(dialog.type());
      void dialog.dismiss();
    });
    const username = uniqueName('b');
    const member = await ApiClient.register(e2e.baseUrl, username, 'e2e-Passw0rd');
    await page.goto(`/admin/users?keyword=${username}`);
    await hydrated(page);
    const row = page.locator(`[data-testid="user-row"][data-user-id="${member.userId}"]`);
    const dialog = page.getByRole('dialog', { name: `禁用 ${username} 的原因` });

    // Escape cancels: nothing changes.
    await row.getByTestId('user-ban').click();
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await row.getByTestId('user-ban').count()).toBe(1);

    await row.getByTestId('user-ban').click();
    await dialog.getByRole('textbox').fill('发广告');
    await e2e.screenshot(page, 'admin-ban-dialog');
    await dialog.getByRole('button', { name: '禁用' }).click();
    await row.getByText('发广告').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await e2e.screenshot(page, 'admin-users');
    expect(native).toEqual([]);
    const thread = await member.call('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: 't',
      content: { text: 'x' },
    });
    expect(thread.Code).toBe(-4009);
    const forum = await member.call('GET', '/api/v3/forum');
    expect(forum.Code).toBe(0); // site info stays readable, so the web app can show /user/status

    // The administrator's own row offers no ban, which could only fail.
    await page.goto(`/admin/users?keyword=${ADMIN.username}`);
    await hydrated(page);
    const { userId: adminId } = await ApiClient.admin(e2e.baseUrl);
    const own = page.locator(`[data-testid="user-row"][data-user-id="${adminId}"]`);
    await own.waitFor();
    expect(await own.getByTestId('user-ban').count()).toBe(0);
    expect(errors).toEqual([]);

    // The banned member, opening /user/status in a new tab, reads the reason (in the raw HTML too).
    const { page: banned, context, errors: bannedErrors } = await e2e.newPage();
    await signIn(context, member.session.accessToken);
    await banned.goto('/user/status');
    await hydrated(banned);
    const status = banned.getByTestId('user-status');
    await status.getByText('账号已被禁用').waitFor();
    await status.getByText('发广告').waitFor();
    const raw = await (
      await fetch(`${e2e.baseUrl}/user/status`, { headers: { Cookie: `access_token=${member.session.accessToken}` } })
    ).text();
    expect(raw).toContain('发广告');
    await e2e.screenshot(banned, 'user-status-reason');
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await banned.reload();
    await hydrated(banned);
    await status.getByText('Reason: 发广告').waitFor();
    await e2e.screenshot(banned, 'user-status-reason-en');
    expect(bannedErrors.filter((e) => !e.includes('-4009'))).toEqual([]);

    // The dialog in English.
    const otherName = uniqueName('e');
    const other = await ApiClient.register(e2e.baseUrl, otherName, 'e2e-Passw0rd');
    await page.context().addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.goto(`/admin/users?keyword=${otherName}`);
    await hydrated(page);
    await page.locator(`[data-testid="user-row"][data-user-id="${other.userId}"]`).getByTestId('user-ban').click();
    await page.getByRole('dialog', { name: `Why ban ${otherName}?` }).waitFor();
    await e2e.screenshot(page, 'admin-ban-dialog-en');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  });

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
