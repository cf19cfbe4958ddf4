import type { BrowserContext, Page } from 'playwright-core';
import { it } from 'vitest';
import type { ThreadDetail, UserProfile } from '@luntan/shared';
import { ApiClient, uniqueName } from './api';
import { hydrated } from './harness';
import type { E2E } from './harness';

/** The helpers the people browser tests share; `e2e` is the file's useE2E(). */
export function peopleKit(e2e: E2E) {
  const desktopOnly = e2e.device === 'desktop' ? it : it.skip;
  const mobileOnly = e2e.device === 'mobile' ? it : it.skip;
  const PASSWORD = 'e2e-Passw0rd';
  /** A 64x48 blue PNG. */
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SAQkAURSDVsZkF98SF2M8/sAAOhY+T5O6AQuwviK7kHdJ3YAFWF+RXci7pG7AAqyvyC7kXVI3YAHWV2QX8i6pG7AA6yuyC3mX1A1YgPUV2YW8S+oGLMD6iuxC3iV1AxZgfUV2Ie+SugELsL4iu5B3Sd2AxwN+rJ5lAAkHD0kAAAAASUVORK5CYII=',
    'base64',
  );

  /** The longest nickname (15 wide letters) and signature (140 characters): for the pictures' overflow checks. */
  const longNickname = () => 'W'.repeat(11) + uniqueName('').slice(-4);
  const LONG_SIGNATURE = [
    ...'这是一段很长的个性签名，用来检查卡片和主页在换行与溢出时的样子。Long signature words too. '.repeat(5),
  ]
    .slice(0, 140)
    .join('');

  async function member(nickname?: string) {
    const username = uniqueName('p');
    const client = await ApiClient.register(e2e.baseUrl, username, PASSWORD, nickname);
    return { username, nickname: nickname ?? username, client, token: client.session.accessToken, id: client.userId };
  }
  type Member = Awaited<ReturnType<typeof member>>;

  async function signIn(context: BrowserContext, who: Member): Promise<void> {
    await context.addCookies([{ name: 'access_token', value: who.token, url: e2e.baseUrl, httpOnly: true }]);
  }

  async function open(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await hydrated(page);
  }

  async function postThread(who: Member, title: string): Promise<ThreadDetail> {
    return who.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title,
      content: { text: `${title}：正文` },
    });
  }

  const profileOf = (viewer: Member, userId: number) =>
    viewer.client.ok<UserProfile>('GET', `/api/v3/user?userId=${userId}`);

  const jumpUrl = (page: Page) => page.evaluate(() => window.sessionStorage.getItem('__jump_url'));

  /** The avatar of the author of the thread card titled `title`. */
  function avatarOnCard(page: Page, title: string) {
    return page.getByTestId('thread-card').filter({ hasText: title }).getByTestId('user-avatar');
  }

  /** Waits until a text appears in the one toast, and answers its type. */
  async function toastSays(page: Page, text: string): Promise<string | null> {
    const toast = page.locator('.lt-toast', { hasText: text });
    await toast.waitFor();
    return toast.getAttribute('data-type');
  }

  async function loginThroughForm(page: Page, who: Member): Promise<void> {
    await page.getByLabel('用户名', { exact: true }).fill(who.username);
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录' }).click();
  }

  return {
    desktopOnly,
    mobileOnly,
    PASSWORD,
    PNG,
    longNickname,
    LONG_SIGNATURE,
    member,
    signIn,
    open,
    postThread,
    profileOf,
    jumpUrl,
    avatarOnCard,
    toastSays,
    loginThroughForm,
  };
}

export type Member = Awaited<ReturnType<ReturnType<typeof peopleKit>['member']>>;
