import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { ADMIN } from '../support/server';
import { adminKit } from '../support/admin';

/** The back office: only for administrators; site settings, categories, groups and their permissions, bans. */
const e2e = useE2E();
const { PNG, signIn, asAdmin } = adminKit(e2e);

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
});
