import type { DialogMessageItem, Page as ListPage } from '@luntan/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { it } from 'vitest';
import { ApiClient, uniqueName } from './api';
import { hydrated, liveOpen } from './harness';
import type { E2E } from './harness';

/** The helpers the message-centre browser tests share; `e2e` is the file's useE2E(). */
export function messagesKit(e2e: E2E) {
  const desktopOnly = e2e.device === 'desktop' ? it : it.skip;
  const PASSWORD = 'e2e-Passw0rd';
  /** What "at once" means for the live stream (the header's poll would take 60 s). */
  const LIVE_MS = 5_000;
  /** A 64x48 blue PNG. */
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SAQkAURSDVsZkF98SF2M8/sAAOhY+T5O6AQuwviK7kHdJ3YAFWF+RXci7pG7AAqyvyC7kXVI3YAHWV2QX8i6pG7AA6yuyC3mX1A1YgPUV2YW8S+oGLMD6iuxC3iV1AxZgfUV2Ie+SugELsL4iu5B3Sd2AxwN+rJ5lAAkHD0kAAAAASUVORK5CYII=',
    'base64',
  );

  async function member(nickname?: string) {
    const username = uniqueName('m');
    const client = await ApiClient.register(e2e.baseUrl, username, PASSWORD, nickname);
    return { username, nickname: nickname ?? username, client, token: client.session.accessToken, id: client.userId };
  }
  type Member = Awaited<ReturnType<typeof member>>;

  /** A browser of its own for `who` (two members look at their pages at the same time). */
  async function browserOf(
    who: Member,
    locale?: 'en',
  ): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const opened = await e2e.newPage();
    await opened.context.addCookies([{ name: 'access_token', value: who.token, url: e2e.baseUrl, httpOnly: true }]);
    if (locale) await opened.context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
    return opened;
  }

  /** Opens a signed-in member's page, ready for what is sent next: hydrated, its live stream open. */
  async function open(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await hydrated(page);
    await liveOpen(page);
  }

  const chatUrl = (who: Member) => `/message?page=chat&userId=${who.id}&nickname=${encodeURIComponent(who.nickname)}`;

  function sendTo(from: Member, to: Member, messageText: string) {
    return from.client.ok<{ dialogId: number; id: number }>('POST', '/api/v3/dialog.create', {
      recipientUserId: to.id,
      messageText,
    });
  }

  /** `who`'s side of a dialog, newest first. */
  async function messagesOf(who: Member, dialogId: number, perPage = 50): Promise<DialogMessageItem[]> {
    const page = await who.client.ok<ListPage<DialogMessageItem>>(
      'GET',
      `/api/v3/dialog/message?dialogId=${dialogId}&perPage=${perPage}`,
    );
    return page.pageData;
  }

  const headerBadge = (page: Page) => page.locator('header').getByTestId('nav-message').getByTestId('badge');
  const dialogRow = (page: Page, who: Member) => page.locator(`[data-testid="dialog-item"][data-user-id="${who.id}"]`);
  const chatMessage = (page: Page, text: string) =>
    page.getByTestId('chat-message').filter({ has: page.getByTestId('chat-text').getByText(text, { exact: true }) });

  /** Waits until a text appears in the one toast. */
  async function toastSays(page: Page, text: string): Promise<void> {
    await page.locator('.lt-toast', { hasText: text }).waitFor();
  }

  return {
    desktopOnly,
    PASSWORD,
    LIVE_MS,
    PNG,
    member,
    browserOf,
    open,
    chatUrl,
    sendTo,
    messagesOf,
    headerBadge,
    dialogRow,
    chatMessage,
    toastSays,
  };
}

export type Member = Awaited<ReturnType<ReturnType<typeof messagesKit>['member']>>;
