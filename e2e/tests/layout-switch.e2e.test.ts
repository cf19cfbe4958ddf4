import type { ThreadDetail } from '@luntan/shared';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { DEVICES } from '../support/devices';
import { hydrated, useE2E } from '../support/harness';

/**
 * Typing survives the layout switch: a window resized (or a tablet turned) across 800 px changes the frame around
 * the page, never the page itself. Each test types, crosses 800 px both ways while still typing, and publishes.
 */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function member(nickname?: string) {
  const username = uniqueName('w');
  const client = await ApiClient.register(e2e.baseUrl, username, PASSWORD, nickname);
  return { nickname: nickname ?? username, client, token: client.session.accessToken, id: client.userId };
}
type Member = Awaited<ReturnType<typeof member>>;

async function openAs(who: Member, url: string, locale?: 'en') {
  const opened = await e2e.page();
  await opened.context.addCookies([{ name: 'access_token', value: who.token, url: e2e.baseUrl, httpOnly: true }]);
  if (locale) await opened.context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
  await opened.page.goto(url);
  await hydrated(opened.page);
  return opened;
}

const layoutOf = (page: Page) => page.locator('[data-layout]').getAttribute('data-layout');

/** The other layout's window: narrower than 800 px on a desktop, wide (and upright) on a phone. */
function otherSize() {
  return e2e.device === 'desktop' ? { width: 700, height: 860 } : { width: 900, height: 1200 };
}

/**
 * Switches to the other layout and back while typing into the focused field without a pause, and answers what was
 * typed. The keys go out one by one for as long as the switching lasts (so some land while React re-renders), and
 * a screenshot of the other layout is taken on the way.
 */
async function typeAcrossSwitch(page: Page, shot: string): Promise<string> {
  const own = DEVICES[e2e.device].viewport!;
  const start = await layoutOf(page);
  const other = start === 'pc' ? 'h5' : 'pc';
  let typed = '';
  let switching = true;
  let warmedUp: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (warmedUp = resolve));
  const typing = (async () => {
    // A few keys before the first resize, keys all through it, and a few after the way back.
    for (let i = 0; switching || i % 8 !== 7; i++) {
      const key = 'abcdefghijklmnopqrstuvwxyz'[i % 26]!;
      await page.keyboard.type(key);
      typed += key;
      if (i === 3) warmedUp();
    }
  })();
  try {
    await started;
    await page.setViewportSize(otherSize());
    await page.waitForSelector(`[data-layout="${other}"]`);
    await e2e.screenshot(page, shot);
    await page.setViewportSize(own);
    await page.waitForSelector(`[data-layout="${start}"]`);
  } finally {
    switching = false;
  }
  await typing;
  return typed;
}

async function expectFocused(field: Locator): Promise<void> {
  expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
}

describe('typing across the layout switch', () => {
  it('keeps a new thread being written, its focus and every key, and publishes it', async () => {
    const author = await member();
    const { page, errors } = await openAs(author, '/thread/post');
    const title = page.getByLabel('标题', { exact: true });
    await title.click();
    await page.keyboard.type('换布局的标题');
    const titleTyped = await typeAcrossSwitch(page, 'switch-post');
    expect(await title.inputValue()).toBe(`换布局的标题${titleTyped}`);
    await expectFocused(title);
    const body = page.locator('#post-editor');
    await body.click();
    await page.keyboard.type('正文开头。');
    const bodyTyped = await typeAcrossSwitch(page, 'switch-post-body');
    expect(await body.inputValue()).toBe(`正文开头。${bodyTyped}`);
    await expectFocused(body);
    expect(await title.inputValue()).toBe(`换布局的标题${titleTyped}`);

    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: `换布局的标题${titleTyped}` }).waitFor();
    expect((await page.getByTestId('thread-content').textContent())?.trim()).toBe(`正文开头。${bodyTyped}`);
    expect(errors).toEqual([]);
  });

  it('keeps the changes to a thread being edited, and saves them', async () => {
    const author = await member();
    const thread = await author.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: '要改的主题',
      content: { text: '原来的正文' },
    });
    const { page, errors } = await openAs(author, `/thread/post?threadId=${thread.threadId}`);
    const body = page.locator('#post-editor');
    await body.click();
    await page.keyboard.press('End');
    await page.keyboard.type('，补充：');
    const typed = await typeAcrossSwitch(page, 'switch-edit');
    expect(await body.inputValue()).toBe(`原来的正文，补充：${typed}`);
    await expectFocused(body);

    await page.getByTestId('publish').click();
    await page.waitForURL((url) => url.pathname === `/thread/${thread.threadId}`);
    await expect
      .poll(async () => (await page.getByTestId('thread-content').textContent())?.trim())
      .toBe(`原来的正文，补充：${typed}`);
    const saved = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${thread.threadId}`);
    expect(saved.content.text).toBe(`原来的正文，补充：${typed}`);
    expect(errors).toEqual([]);
  });

  it('keeps a reply being written (in English), and sends it', async () => {
    const author = await member();
    const reader = await member();
    const thread = await author.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: 'Layout switch',
      content: { text: 'Reply below.' },
    });
    const { page, errors } = await openAs(reader, `/thread/${thread.threadId}`, 'en');
    const box = page.getByTestId('reply-box').getByRole('textbox');
    await box.click();
    await page.keyboard.type('My reply: ');
    const typed = await typeAcrossSwitch(page, 'switch-reply-en');
    expect(await box.inputValue()).toBe(`My reply: ${typed}`);
    await expectFocused(box);

    await page.getByTestId('reply-box').locator('button[type="submit"]').click();
    await page
      .getByTestId('reply')
      .filter({ hasText: `My reply: ${typed}` })
      .waitFor();
    expect(await box.inputValue()).toBe('');
    expect(errors).toEqual([]);
  });

  it('keeps a private message being written in the open chat, and sends it with Enter', async () => {
    const alice = await member(`Alice${uniqueName('').slice(-4)}`);
    const bob = await member();
    await alice.client.ok('POST', '/api/v3/dialog.create', { recipientUserId: bob.id, messageText: '在吗？' });
    const url = `/message?page=chat&userId=${alice.id}&nickname=${encodeURIComponent(alice.nickname)}`;
    const { page, errors } = await openAs(bob, url);
    const input = page.getByTestId('chat-input');
    await input.click();
    await page.keyboard.type('在的：');
    const typed = await typeAcrossSwitch(page, 'switch-chat');
    expect(await input.inputValue()).toBe(`在的：${typed}`);
    await expectFocused(input);

    await page.keyboard.press('Enter');
    await page
      .getByTestId('chat-message')
      .filter({ has: page.getByTestId('chat-text').getByText(`在的：${typed}`, { exact: true }) })
      .waitFor();
    expect(await input.inputValue()).toBe('');
    expect(errors).toEqual([]);
  });
});
