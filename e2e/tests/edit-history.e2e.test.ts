import type { PostItem, ThreadDetail } from '@luntan/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** Edited posts are marked; their author opens the history and sees what each edit changed (issue 26, part 3). */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

describe('edit history', () => {
  for (const locale of ['zh', 'en'] as const) {
    it(`marks edited posts and shows their versions as a diff (${locale})`, async () => {
      const text =
        locale === 'zh'
          ? { edited: '已编辑', title: '编辑记录', original: '最初发布的版本' }
          : { edited: 'Edited', title: 'Edit history', original: 'As first posted' };
      const author = await ApiClient.register(e2e.baseUrl, uniqueName('h'), PASSWORD, '改稿的人');
      const thread = await author.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
        categoryId: 1,
        title: '连接池开多大',
        content: { text: '数据库连接池开到多大比较合适？我现在开了二十个。' },
      });
      await author.ok('POST', '/api/v3/thread.update', {
        threadId: thread.threadId,
        title: '连接池开多大合适',
        content: { text: '数据库连接池开到多大比较合适？我现在开了十个，够用了。' },
      });
      const reply = await author.ok<PostItem>('POST', '/api/v3/posts.create', {
        id: thread.threadId,
        content: '补充一点',
      });
      await author.ok('POST', '/api/v3/posts.update', { id: reply.id, content: '补充一点：压测过了' });

      // A guest sees the marks, but no history to open.
      const guest = await e2e.newPage();
      if (locale === 'en') await guest.context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
      await open(guest.page, `/thread/${thread.threadId}`);
      const guestMark = guest.page.getByTestId('edited-mark').first();
      expect(await guestMark.textContent()).toBe(text.edited);
      expect(await guestMark.evaluate((el) => el.tagName)).toBe('SPAN');
      expect(guest.errors).toEqual([]);

      const { page, context, errors } = await e2e.newPage();
      await context.addCookies([
        { name: 'access_token', value: author.session.accessToken, url: e2e.baseUrl, httpOnly: true },
        ...(locale === 'en' ? [{ name: 'locale', value: 'en', url: e2e.baseUrl }] : []),
      ]);
      await open(page, `/thread/${thread.threadId}`);
      const marks = page.getByTestId('edited-mark');
      await expect.poll(() => marks.count()).toBe(2);
      await marks.first().click();
      const dialog = page.getByRole('dialog', { name: text.title });
      await dialog.waitFor();
      await expect.poll(() => dialog.getByTestId('history-version').count()).toBe(2);
      // The newest version against the one before: what was added and what was removed.
      const diff = dialog.getByTestId('history-diff');
      const joined = async (selector: string) => (await diff.locator(selector).allTextContents()).join('');
      await expect.poll(() => joined('ins')).toContain('够用了');
      expect(await joined('del')).toContain('二');
      expect(await dialog.getByTestId('history-title').locator('ins').allTextContents()).toEqual(['合适']);
      await e2e.screenshot(page, `edit-history-${locale}`);
      await dialog.getByTestId('history-version').nth(1).click();
      await expect.poll(() => dialog.textContent()).toContain(text.original);
      expect(await diff.locator('ins, del').count()).toBe(0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // The reply's history: the same dialog, without a title.
      await marks.nth(1).click();
      await dialog.waitFor();
      await expect
        .poll(() => dialog.getByTestId('history-diff').locator('ins').allTextContents())
        .toEqual(['：压测过了']);
      expect(await dialog.getByTestId('history-title').count()).toBe(0);
      expect(errors).toEqual([]);
    });
  }
});
