import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** The emoji picker in the thread editor and the reply box: `:code:` goes in the text, the emoji shows. */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

describe('emoji', () => {
  it('picks an emoji into a new thread and into a reply; both show as emoji', async () => {
    const client = await ApiClient.register(e2e.baseUrl, uniqueName('e'), PASSWORD);
    const { page, context, errors } = await e2e.newPage();
    await context.addCookies([
      { name: 'access_token', value: client.session.accessToken, url: e2e.baseUrl, httpOnly: true },
    ]);
    await open(page, '/thread/post');
    const title = `心情 ${uniqueName('t')}`;
    await page.getByLabel('标题', { exact: true }).fill(title);
    const body = page.getByLabel('正文', { exact: true });
    await body.fill('今天心情不错');

    await page.getByTestId('emoji-button').click();
    const panel = page.getByTestId('emoji-panel');
    await panel.locator('[data-code=":grinning:"]').waitFor();
    await e2e.screenshot(page, 'emoji-picker-editor');
    await panel.getByTestId('emoji-search').fill('smile');
    await panel.locator('[data-code=":smile:"]').click();
    await expect.poll(() => body.inputValue()).toBe('今天心情不错:smile:');
    expect(await panel.count()).toBe(0);

    await page.getByTestId('editor-preview-tab').click();
    await expect.poll(() => page.getByTestId('editor-preview').textContent()).toContain('今天心情不错😄');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    await expect.poll(() => page.getByTestId('thread-content').textContent()).toContain('今天心情不错😄');

    // The reply box: the recently used emoji come first; a search by the Chinese name finds ❤️.
    const box = page.getByTestId('reply-box');
    await box.getByRole('textbox').fill('同意');
    await box.getByTestId('emoji-button').click();
    const replyPanel = box.getByTestId('emoji-panel');
    await replyPanel.getByTestId('emoji-tab-recent').waitFor();
    await replyPanel.locator('[data-code=":smile:"]').waitFor();
    await e2e.screenshot(page, 'emoji-picker-reply');
    await replyPanel.getByTestId('emoji-search').fill('红心');
    await replyPanel.locator('[data-code=":heart:"]').click();
    await expect.poll(() => box.getByRole('textbox').inputValue()).toBe('同意:heart:');
    await box.getByRole('button', { name: '回复' }).click();
    const reply = page.getByTestId('reply').filter({ hasText: '同意' });
    await reply.waitFor();
    expect(await reply.textContent()).toContain('同意❤️');
    expect(errors).toEqual([]);
  });
});
