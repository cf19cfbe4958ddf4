import { Code, type ApiKeyItem, type Envelope, type Forum } from '@luntan/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { ADMIN } from '../support/server';

/**
 * The back office's API keys page: a read key and a write key made for a member, each shown once (a dialog with a
 * warning and a copy button) and then used by a program (fetch from the test) as that member; the read key refused a
 * write (-4002); "last used" filled in after a reload; an unknown member refused in the page's language; revoking
 * through the site's dialog, after which the key is a guest's. In Chinese and English, on both layouts.
 */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function asAdmin(locale: 'zh' | 'en'): Promise<{ page: Page; errors: string[] }> {
  const { page, context, errors } = await e2e.newPage();
  const session = await new ApiClient(e2e.baseUrl).ok<{ accessToken: string }>(
    'POST',
    '/api/v3/users/username.login',
    ADMIN,
  );
  await context.addCookies([
    { name: 'access_token', value: session.accessToken, url: e2e.baseUrl, httpOnly: true },
    { name: 'locale', value: locale, url: e2e.baseUrl },
  ]);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.baseUrl });
  page.on('dialog', (dialog) => {
    errors.push(`browser dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, errors };
}

/** A program's call with the key (no cookie, no session). */
async function withKey<T>(key: string, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Envelope<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(e2e.baseUrl + url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as Envelope<T>;
}

describe('API keys page', () => {
  for (const locale of ['zh', 'en'] as const) {
    const text =
      locale === 'zh'
        ? {
            title: 'API 密钥',
            once: '只显示这一次',
            copied: '已复制到剪贴板',
            never: '从未使用',
            noMember: '没有这个用户',
            revoke: '撤销',
            revoked: '已撤销',
            revokedToast: '密钥已撤销',
            help: 'RATE_LIMIT_API_KEY',
          }
        : {
            title: 'API keys',
            once: 'shown only this once',
            copied: 'Copied to the clipboard',
            never: 'Never',
            noMember: 'There is no such member',
            revoke: 'Revoke',
            revoked: 'Revoked',
            revokedToast: 'Key revoked',
            help: 'RATE_LIMIT_API_KEY',
          };

    it(`makes a read and a write key for a member, shows each once, uses and revokes them (${locale})`, async () => {
      const admin = await e2e.admin();
      const nickname = `${locale === 'zh' ? '脚本' : 'Bot'}${uniqueName('n').slice(-6)}`;
      const member = await ApiClient.register(e2e.baseUrl, uniqueName('k'), PASSWORD, nickname);
      const list = () => admin.ok<ApiKeyItem[]>('GET', '/api/backAdmin/apikeys');
      const { page, errors } = await asAdmin(locale);
      await page.goto('/admin/apikeys');
      await hydrated(page);
      await page.getByRole('heading', { level: 1, name: text.title }).waitFor();
      const help = page.getByTestId('apikey-help');
      await expect(help.innerText()).resolves.toContain(text.help);
      await expect(help.getByTestId('apikey-curl').innerText()).resolves.toBe(
        `curl -H "Authorization: Bearer lt_…" ${e2e.baseUrl}/api/v3/thread.list`,
      );
      await expect(help.getByTestId('apikey-docs').getAttribute('href')).resolves.toBe('/api/docs');

      const form = page.getByTestId('apikey-form');
      /** Makes a key through the form; answers the key read from the "shown once" dialog, which it then closes. */
      const make = async (name: string, scope: 'read' | 'write', shot?: string) => {
        await form.locator('input[name="name"]').fill(name);
        await form.locator('select[name="scope"]').selectOption(scope);
        await form.locator('input[name="userId"]').fill(String(member.userId));
        await form.getByTestId('apikey-create').click();
        const shown = page.locator('dialog.lt-admin-apikeys__dialog');
        await shown.waitFor();
        await expect(shown.getByTestId('apikey-created-warning').innerText()).resolves.toContain(text.once);
        const key = await shown.getByTestId('apikey-secret').innerText();
        expect(key).toMatch(/^lt_[A-Za-z0-9]{40}$/);
        await shown.getByTestId('apikey-copy').click();
        await page.locator('.lt-toast', { hasText: text.copied }).waitFor();
        await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);
        if (shot) await e2e.screenshot(page, shot);
        // Escape does not lose it: only the button closes the dialog.
        await page.keyboard.press('Escape');
        await expect(shown.isVisible()).resolves.toBe(true);
        await shown.getByTestId('apikey-created-close').click();
        await shown.waitFor({ state: 'detached' });
        return key;
      };

      const readKey = await make(`reader ${locale}`, 'read', `admin-apikeys-created-${locale}`);
      const writeKey = await make(`writer ${locale}`, 'write');
      const made = (await list()).filter((k) => k.userId === member.userId);
      expect(made.map((k) => [k.name, k.scope])).toEqual([
        [`writer ${locale}`, 'write'],
        [`reader ${locale}`, 'read'],
      ]);
      const [writer, reader] = made;
      const rowOf = (item: ApiKeyItem) => page.locator(`[data-testid="apikey-row"][data-apikey-id="${item.id}"]`);
      await rowOf(reader!).waitFor();
      await expect(rowOf(reader!).innerText()).resolves.toContain(`${reader!.keyPrefix}…`);
      await expect(rowOf(reader!).getByTestId('apikey-acts-as').innerText()).resolves.toContain(nickname);
      await expect(rowOf(reader!).getByTestId('apikey-last-used').innerText()).resolves.toBe(text.never);
      // The page never holds a key once its dialog is closed.
      expect(await page.content()).not.toContain(readKey);

      // A program uses them: each is the member; the read key may not write.
      const forum = await withKey<Forum>(readKey, 'GET', '/api/v3/forum');
      expect(forum.Data.user?.userId).toBe(member.userId);
      expect((await withKey<Forum>(writeKey, 'GET', '/api/v3/forum')).Data.user?.userId).toBe(member.userId);
      const refused = await withKey(readKey, 'POST', '/api/v3/thread.create', {
        categoryId: 1,
        title: 'Written with a read key',
        content: { text: 'no' },
      });
      expect(refused.Code).toBe(Code.UNAUTHORIZED);

      // After a reload, "last used" says when.
      await page.reload();
      await hydrated(page);
      const lastUsed = rowOf(reader!).getByTestId('apikey-last-used');
      await lastUsed.waitFor();
      await expect(lastUsed.innerText()).resolves.not.toBe(text.never);
      await expect(lastUsed.locator('time').count()).resolves.toBe(1);
      await expect(rowOf(writer!).getByTestId('apikey-last-used').locator('time').count()).resolves.toBe(1);
      await e2e.screenshot(page, `admin-apikeys-${locale}`);

      // An unknown member: the server's message, in the page's language, beside the form; nothing made.
      const before = (await list()).length;
      await form.locator('input[name="name"]').fill('nobody');
      await form.locator('input[name="userId"]').fill('999999');
      await form.getByTestId('apikey-create').click();
      await expect.poll(() => form.getByTestId('apikey-error').innerText()).toContain(text.noMember);
      expect((await list()).length).toBe(before);
      await form.scrollIntoViewIfNeeded();
      await e2e.screenshot(page, `admin-apikeys-error-${locale}`);

      // Revoking asks in the site's dialog; then the key is a guest's.
      const row = rowOf(reader!);
      await row.scrollIntoViewIfNeeded();
      await row.getByTestId('apikey-revoke').click();
      const confirm = page.locator('dialog.lt-dialog');
      await confirm.getByRole('button', { name: text.revoke }).click();
      await expect.poll(() => row.getAttribute('data-status')).toBe('revoked');
      await expect(row.getByTestId('apikey-status').innerText()).resolves.toContain(text.revoked);
      await expect(row.getByTestId('apikey-revoke').count()).resolves.toBe(0);
      const revokedToast = page.locator('.lt-toast', { hasText: text.revokedToast });
      await revokedToast.waitFor();
      expect((await list()).find((k) => k.id === reader!.id)!.revokedAt).not.toBeNull();
      expect((await withKey<Forum>(readKey, 'GET', '/api/v3/forum')).Data.user).toBeNull();
      expect((await withKey<Forum>(writeKey, 'GET', '/api/v3/forum')).Data.user?.userId).toBe(member.userId);
      await revokedToast.waitFor({ state: 'detached' });
      await e2e.screenshot(page, `admin-apikeys-revoked-${locale}`);
      await help.scrollIntoViewIfNeeded();
      await e2e.screenshot(page, `admin-apikeys-help-${locale}`);
      expect(errors).toEqual([]);
    });
  }
});
