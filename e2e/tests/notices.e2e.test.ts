import type { Page as ListPage, ThreadDetail } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../support/api';
import { useE2E } from '../support/harness';
import { messagesKit } from '../support/messages';

/** The message centre: notices. */
const e2e = useE2E();
const { LIVE_MS, member, browserOf, open, headerBadge } = messagesKit(e2e);

describe('notices', () => {
  it('a reply to my thread appears under thread notices, live in the tab badge, linked to the reply', async () => {
    const pam = await member();
    const quinn = await member(`Quinn${uniqueName('').slice(-4)}`);
    const title = `回复通知 ${uniqueName('t')}`;
    const thread = await pam.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title,
      content: { text: `${title}：正文` },
    });
    const { page, errors } = await browserOf(pam);
    await open(page, '/message');
    const tab = page.getByTestId('message-tab-thread');
    expect(await tab.getByTestId('badge').count()).toBe(0);

    const reply = await quinn.client.ok<{ id: number }>('POST', '/api/v3/posts.create', {
      id: thread.threadId,
      content: '写得好，我有个问题想请教',
    });
    await expect.poll(() => tab.getByTestId('badge').textContent(), { timeout: LIVE_MS }).toBe('1');
    await expect.poll(() => headerBadge(page).textContent(), { timeout: LIVE_MS }).toBe('1');

    await tab.click();
    const notice = page.getByTestId('notice-list-thread').getByTestId('notice').first();
    await notice.waitFor();
    expect(await notice.getAttribute('data-type')).toBe('replied');
    expect(await notice.textContent()).toContain(quinn.nickname);
    expect(await notice.getByTestId('notice-link').getAttribute('href')).toBe(
      `/thread/${thread.threadId}#post-${reply.id}`,
    );
    // Listing read it.
    await expect.poll(() => tab.getByTestId('badge').count(), { timeout: LIVE_MS }).toBe(0);
    expect(await headerBadge(page).count()).toBe(0);
    await e2e.screenshot(page, 'message-notices-thread');

    await notice.getByTestId('notice-link').click();
    await page.waitForURL((url) => url.pathname === `/thread/${thread.threadId}` && url.hash === `#post-${reply.id}`);
    await page.locator(`#post-${reply.id}`).waitFor();

    // Deleted one by one.
    await open(page, '/message?type=thread');
    await page.getByTestId('notice').first().hover();
    await page.getByTestId('notice').first().getByTestId('notice-delete').click();
    await page.getByTestId('notice-list-thread').getByText('还没有帖子通知').waitFor();
    const left = await pam.client.ok<ListPage<unknown>>('GET', '/api/v3/notification?filter[type]=replied');
    expect(left.totalCount).toBe(0);
    expect(errors).toEqual([]);
  });

  it("an administrator's ban appears under account messages after the unban", async () => {
    const rose = await member();
    const admin = await e2e.admin();
    await admin.ok('POST', '/api/backAdmin/users/update.user', { id: rose.id, status: 1, reason: '发广告' });
    await admin.ok('POST', '/api/backAdmin/users/update.user', { id: rose.id, status: 0 });
    const { page, errors } = await browserOf(rose);
    await open(page, '/message');
    expect(Number(await page.getByTestId('message-tab-account').getByTestId('badge').textContent())).toBeGreaterThan(0);
    await page.getByTestId('message-tab-account').click();
    const list = page.getByTestId('notice-list-account');
    await list.getByTestId('notice').first().waitFor();
    expect(await list.textContent()).toContain('发广告');
    for (const type of await list
      .getByTestId('notice')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')))) {
      expect(type).toBe('system');
    }
    await expect
      .poll(() => page.getByTestId('message-tab-account').getByTestId('badge').count(), { timeout: LIVE_MS })
      .toBe(0);
    await e2e.screenshot(page, 'message-notices-account');
    expect(errors).toEqual([]);
  });

  it('speaks English (a notice list)', async () => {
    const sam = await member();
    const tina = await member(`Tina${uniqueName('').slice(-4)}`);
    const thread = await sam.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: `English notices ${uniqueName('t')}`,
      content: { text: 'A thread to reply to' },
    });
    await tina.client.ok('POST', '/api/v3/posts.create', { id: thread.threadId, content: 'Nice one!' });
    const { page, errors } = await browserOf(sam, 'en');
    await open(page, '/message?type=thread');
    await page.getByTestId('notice').first().waitFor();
    expect(await page.getByTestId('message-tab-thread').textContent()).toContain('Thread notices');
    await e2e.screenshot(page, 'message-notices-thread-en');
    expect(errors).toEqual([]);
  });
});
