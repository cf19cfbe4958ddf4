import fs from 'node:fs';
import type { BackupListData, BackupSchedule } from '@luntan/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { ADMIN } from '../support/server';

/**
 * The back office's Backups page (docs/operations.md): making a backup with the button, its row turning done (the
 * page polls) with the manifest's counts, downloading the archive through a plain link (the session cookie), the
 * daily schedule refused with the server's message in the page's language and then saved, deleting through the
 * site's dialog; in Chinese and English, on both layouts.
 */
const e2e = useE2E();

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
  page.on('dialog', (dialog) => {
    errors.push(`browser dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, errors };
}

describe('backups page', () => {
  for (const locale of ['zh', 'en'] as const) {
    const text =
      locale === 'zh'
        ? { title: '备份', done: '完成', manual: '手动', badTime: '24 小时制', saved: '已保存', del: '删除' }
        : {
            title: 'Backups',
            done: 'Done',
            manual: 'By hand',
            badTime: '24-hour clock',
            saved: 'Saved',
            del: 'Delete',
          };

    it(`makes a backup, downloads it, sets the schedule, deletes it (${locale})`, async () => {
      const admin = await e2e.admin();
      const list = () => admin.ok<BackupListData>('GET', '/api/backAdmin/backups');
      const before = new Set((await list()).backups.map((b) => b.id));
      const { page, errors } = await asAdmin(locale);
      await page.goto('/admin/backups');
      await hydrated(page);
      await page.getByRole('heading', { level: 1, name: text.title }).waitFor();
      await page.getByTestId('backup-help').getByText('npm run restore -- FILE').waitFor();

      // The button starts one; the row appears running and turns done without a reload (the list is polled).
      await page.getByTestId('backup-start').click();
      await expect.poll(async () => (await list()).backups.find((b) => !before.has(b.id))?.id).toBeDefined();
      const made = (await list()).backups.find((b) => !before.has(b.id))!;
      expect(made.origin).toBe('manual');
      const row = page.locator(`[data-testid="backup-row"][data-backup-id="${made.id}"]`);
      await row.waitFor();
      await expect.poll(() => row.getAttribute('data-status')).toBe('done');
      await expect(page.getByTestId('backup-start').isEnabled()).resolves.toBe(true);
      const done = (await list()).backups.find((b) => b.id === made.id)!;
      expect(done.status).toBe('done');
      expect(done.counts!.users).toBeGreaterThanOrEqual(1);
      const counts = `${done.counts!.users} / ${done.counts!.threads} / ${done.counts!.posts}`;
      await expect(row.getByTestId('backup-counts').innerText()).resolves.toBe(counts);
      await expect(row.getByTestId('backup-wallet-sum').innerText()).resolves.toBe(done.walletSum);
      const rowText = await row.innerText();
      expect(rowText).toContain(text.done);
      expect(rowText).toContain(text.manual);
      expect(rowText).toMatch(/\d(\.\d)? (B|KB|MB)/);
      await e2e.screenshot(page, `admin-backups-${locale}`);

      // The link is a plain download: the cookie signs it, the archive arrives under its own name.
      const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('backup-download').click()]);
      expect(download.suggestedFilename()).toBe(done.name);
      expect(done.name).toMatch(/^luntan-backup-.+\.tar\.gz$/);
      expect(fs.statSync(await download.path()).size).toBe(done.bytes);

      // A wrong time: the server's message, in the page's language, beside the form.
      const form = page.getByTestId('backup-schedule');
      await form.locator('input[name="time"]').fill('25:61');
      await form.getByTestId('backup-schedule-save').click();
      await expect.poll(() => form.getByTestId('backup-schedule-error').innerText()).toContain(text.badTime);
      await form.scrollIntoViewIfNeeded();
      await e2e.screenshot(page, `admin-backups-schedule-error-${locale}`);

      // A right one: saved, and the line above the fields says what is in force. 23:59, so that the daily backup
      // does not fall due while the test runs.
      await form.locator('input[name="enabled"]').check();
      await form.locator('input[name="time"]').fill('23:59');
      await form.locator('input[name="keep"]').fill('5');
      await form.getByTestId('backup-schedule-save').click();
      await expect.poll(() => form.getByTestId('backup-schedule-saved').innerText()).toBe(text.saved);
      await expect.poll(() => form.getByTestId('backup-schedule-state').innerText()).toContain('23:59');
      await expect(form.getByTestId('backup-schedule-state').innerText()).resolves.toContain('5');
      await expect(admin.ok<BackupListData>('GET', '/api/backAdmin/backups').then((d) => d.schedule)).resolves.toEqual({
        enabled: true,
        time: '23:59',
        keep: 5,
      } satisfies BackupSchedule);
      await e2e.screenshot(page, `admin-backups-schedule-${locale}`);
      await admin.ok('POST', '/api/backAdmin/backups.schedule', { enabled: false, time: '03:00', keep: 7 });

      // Deleting asks in the site's dialog.
      await row.scrollIntoViewIfNeeded();
      await row.getByTestId('backup-delete').click();
      const confirm = page.locator('dialog.lt-dialog');
      await confirm.getByRole('button', { name: text.del }).click();
      await row.waitFor({ state: 'detached' });
      expect((await list()).backups.some((b) => b.id === made.id)).toBe(false);
      expect(errors).toEqual([]);
    });
  }
});
