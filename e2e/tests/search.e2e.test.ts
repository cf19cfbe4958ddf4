import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PostItem, ThreadDetail } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** The search page finds words that only a reply holds, marks them, and links to the reply on its page. */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function member(): Promise<ApiClient> {
  return ApiClient.register(e2e.baseUrl, uniqueName('s'), PASSWORD);
}

/** Whether the element is inside the window's visible part (below the sticky header's bottom edge too). */
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight && box.bottom > 0;
  });

describe('search in replies', () => {
  it('finds a word that only a reply holds, marks it, and opens the thread at that reply (page 2)', async () => {
    const author = await member();
    const replier = await member();
    const marker = uniqueName('m');
    const thread = await author.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: `颐和园一日游 ${marker}`,
      content: { text: '周末去了颐和园，人很多，门票也不便宜。' },
    });
    // The 40th reply: the last one of page 2, far below the top, so opening it has to scroll.
    for (let i = 1; i <= 39; i++) {
      await author.ok('POST', '/api/v3/posts.create', { id: thread.threadId, content: `第 ${i} 楼：排队的人真多。` });
    }
    const reply = await replier.ok<PostItem>('POST', '/api/v3/posts.create', {
      id: thread.threadId,
      content: `我们沿着昆明湖走了一圈，十七孔桥很好看。${marker}`,
    });

    await author.searchFinds('昆明湖', thread.threadId);

    const { page, context, errors } = await e2e.newPage();
    for (const locale of ['zh', 'en'] as const) {
      await context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
      await page.goto(`/search?keyword=${encodeURIComponent('昆明湖')}`);
      await hydrated(page);
      const card = page.getByTestId('thread-card').filter({ hasText: marker });
      await card.waitFor();
      const hit = card.getByTestId('matched-post');
      expect(await hit.locator('mark').first().textContent()).toBe('昆明湖');
      expect(await hit.textContent()).toContain(locale === 'zh' ? '的回复' : 'Reply by');
      expect(await hit.getAttribute('href')).toBe(`/thread/${thread.threadId}?page=2#post-${reply.id}`);
      await e2e.screenshot(page, `search-reply-${locale}`);
    }

    await page.getByTestId('thread-card').filter({ hasText: marker }).getByTestId('matched-post').click();
    await page.waitForURL(
      (url) =>
        url.pathname === `/thread/${thread.threadId}` &&
        url.searchParams.get('page') === '2' &&
        url.hash === `#post-${reply.id}`,
    );
    await page.locator(`#post-${reply.id}`).waitFor();
    await page.waitForFunction((id) => {
      const box = document.getElementById(`post-${id}`)?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < window.innerHeight;
    }, reply.id);
    expect(await inView(page, `#post-${reply.id}`)).toBe(true);
    expect(await page.locator(`#post-${reply.id}`).textContent()).toContain('昆明湖');
    // Marked as the post the link was for (the router's navigation does not set CSS's :target).
    await page.locator(`#post-${reply.id}.lt-post--target`).waitFor();
    await e2e.screenshot(page, 'search-reply-opened');

    // The same address typed or shared: the server-rendered page opens at the reply too.
    await page.goto(`/thread/${thread.threadId}?page=2#post-${reply.id}`);
    await hydrated(page);
    await page.waitForFunction((id) => {
      const box = document.getElementById(`post-${id}`)?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < window.innerHeight;
    }, reply.id);
    expect(errors).toEqual([]);
  });
});
