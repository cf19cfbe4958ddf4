import { describe, expect, it } from 'vitest';
import type { ThreadDetail } from '@luntan/shared';
import { uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { peopleKit } from '../support/people';

/** Topics: `#` in the editor suggests topics; a published `#name#` links to the topic's page, which lists the thread. */
const e2e = useE2E();
const { member, signIn, open } = peopleKit(e2e);

describe('topics', () => {
  it('suggests a topic after #, links it once published, and the topic page lists the thread', async () => {
    const suffix = uniqueName('').slice(-6);
    const name = `旅行${suffix}`;
    const alice = await member();
    const bob = await member();
    // A topic that exists already, named by another thread.
    await bob.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: `西湖边走走 ${suffix}`,
      content: { text: `春天的西湖 #${name}#` },
    });

    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, '/thread/post');
    const body = page.getByLabel('正文', { exact: true });
    await body.click();
    await body.pressSequentially(`周末去杭州 #旅行${suffix.slice(0, 3)}`);
    const list = page.getByTestId('topic-list');
    await list
      .getByTestId('topic-option')
      .filter({ hasText: `#${name}#` })
      .waitFor();
    await e2e.screenshot(page, 'topic-suggest');
    const options = await list.getByTestId('topic-option').allTextContents();
    const index = options.findIndex((text) => text.includes(`#${name}#`));
    for (let i = 0; i < index; i++) await body.press('ArrowDown');
    await body.press('Enter');
    await list.waitFor({ state: 'detached' });
    expect(await body.inputValue()).toBe(`周末去杭州 #${name}# `);
    await body.pressSequentially('看看西湖。');
    const title = `杭州之行 ${suffix}`;
    await page.getByLabel('标题', { exact: true }).fill(title);
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));

    const link = page.getByTestId('thread-content').locator('a.topic').first();
    await link.waitFor();
    expect(await link.textContent()).toBe(`#${name}#`);
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/topic\/\d+$/);
    await link.click();
    await page.waitForURL((url) => url.pathname === href);
    await hydrated(page);
    expect(await page.getByTestId('topic-name').textContent()).toBe(`#${name}#`);
    // The links follow the thread through an after-commit subscriber: reload until it has run.
    const listed = page.getByTestId('topic-threads').getByRole('link', { name: title });
    await expect
      .poll(async () => {
        if ((await listed.count()) > 0) return true;
        await page.reload();
        await hydrated(page);
        return false;
      })
      .toBe(true);
    await page
      .getByTestId('topic-threads')
      .getByRole('link', { name: `西湖边走走 ${suffix}` })
      .waitFor();
    expect(await page.getByTestId('topic-stats').textContent()).toContain('2 篇内容');
    await e2e.screenshot(page, 'topic-page-zh');

    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.reload();
    await hydrated(page);
    expect(await page.getByTestId('topic-stats').textContent()).toContain('2 threads');
    await e2e.screenshot(page, 'topic-page-en');

    // The hot topics: the right column on a desktop, a row under the categories on a phone.
    await open(page, '/');
    await page
      .getByTestId('hot-topics')
      .getByRole('link', { name: `#${name}#` })
      .waitFor();
    await e2e.screenshot(page, 'home-hot-topics-en');
    await open(page, '/topics');
    await page
      .getByTestId('topics-list')
      .getByRole('link', { name: `#${name}#` })
      .waitFor();
    await e2e.screenshot(page, 'topics-page-en');
    expect(errors).toEqual([]);
  });
});
