import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ThreadDetail, UserProfile } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** People: the hover card on avatars, a member's page, the personal centre, blocking, @mention suggestions. */
const e2e = useE2E();
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

describe('hover card', () => {
  desktopOnly(
    'opens on an avatar of the thread list: loading, then the counts; follows, unfollows, shows mutual; closes 200 ms after leaving',
    async () => {
      const bob = await member(`Bob${uniqueName('').slice(-4)}`);
      const carol = await member();
      const alice = await member();
      const title = `卡片测试 ${uniqueName('t')}`;
      await postThread(bob, `较早的一帖 ${uniqueName('t')}`);
      await postThread(bob, title);
      await bob.client.ok('POST', '/api/v3/users/update.user', { signature: '我是鲍勃，喜欢下棋' });
      await carol.client.ok('POST', '/api/v3/follow.create', { toUserId: bob.id });

      const { page, context, errors } = await e2e.newPage();
      // Slow the card's call down a little, so its loading state can be seen.
      await page.route(/\/api\/v3\/user\?/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.continue();
      });
      await signIn(context, alice);
      await open(page, '/');
      const avatar = avatarOnCard(page, title);
      await avatar.hover();
      const card = page.getByTestId('user-card');
      await page.locator('[data-testid="user-card"][data-state="loading"]').waitFor();
      expect(await card.textContent()).toContain('加载中');
      await page.locator('[data-testid="user-card"][data-state="shown"]').waitFor();
      expect(await card.getByTestId('card-name').textContent()).toBe(bob.nickname);
      expect(await card.getByTestId('signature').textContent()).toBe('我是鲍勃，喜欢下棋');
      const count = (name: string) => card.getByTestId(`count-${name}`).textContent();
      expect([await count('threads'), await count('likes'), await count('follows'), await count('fans')]).toEqual([
        '2',
        '0',
        '0',
        '1',
      ]);
      expect(await card.getByTestId('message-button').getAttribute('href')).toBe(
        `/message?page=chat&userId=${bob.id}&nickname=${encodeURIComponent(bob.nickname)}`,
      );
      await page.waitForTimeout(150); // let the fade-in finish for the picture
      await e2e.screenshot(page, 'hover-card');

      // Follow: the fan count rises at once; unfollow brings it back.
      const follow = card.getByTestId('follow-button');
      await follow.click();
      await card.locator('[data-testid="follow-button"][data-follow="1"]').waitFor();
      expect(await follow.textContent()).toBe('已关注');
      expect(await count('fans')).toBe('2');
      expect((await profileOf(alice, bob.id)).follow).toBe(1);
      await follow.click();
      await card.locator('[data-testid="follow-button"][data-follow="0"]').waitFor();
      expect(await follow.textContent()).toBe('关注');
      expect(await count('fans')).toBe('1');

      // Bob follows Alice back (through the API): following him now is mutual.
      await bob.client.ok('POST', '/api/v3/follow.create', { toUserId: alice.id });
      await follow.click();
      await card.locator('[data-testid="follow-button"][data-follow="2"]').waitFor();
      expect(await follow.textContent()).toBe('互相关注');
      expect(await count('fans')).toBe('2');

      // Leaving: still open 100 ms later, gone by 400 ms (measured in the page, from the moment the pointer left).
      await page.evaluate(() => {
        const w = window as unknown as { cardAt100?: boolean; cardAt400?: boolean };
        const onOver = (event: MouseEvent): void => {
          const target = event.target as Element;
          if (target.closest('[data-testid="user-card"], .lt-hover-card-anchor')) return;
          document.removeEventListener('mouseover', onOver, true);
          const present = () => document.querySelector('[data-testid="user-card"]') !== null;
          setTimeout(() => (w.cardAt100 = present()), 100);
          setTimeout(() => (w.cardAt400 = present()), 400);
        };
        document.addEventListener('mouseover', onOver, true);
      });
      await page.mouse.move(1300, 700, { steps: 2 });
      await page.waitForFunction(() => (window as unknown as { cardAt400?: boolean }).cardAt400 !== undefined);
      expect(await page.evaluate(() => (window as unknown as { cardAt100?: boolean }).cardAt100)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { cardAt400?: boolean }).cardAt400)).toBe(false);

      // Opening again starts from loading and shows what changed meanwhile.
      await postThread(bob, `又一帖 ${uniqueName('t')}`);
      await avatar.hover();
      await page.locator('[data-testid="user-card"][data-state="loading"]').waitFor();
      await page.locator('[data-testid="user-card"][data-state="shown"]').waitFor();
      expect(await count('threads')).toBe('3');
      expect(await follow.textContent()).toBe('互相关注');
      expect(errors).toEqual([]);
    },
  );

  desktopOnly("has no buttons on one's own card, on a thread's page too; speaks English", async () => {
    const alice = await member();
    const bob = await member();
    const title = `我自己的主题 ${uniqueName('t')}`;
    const thread = await postThread(alice, title);
    const bobs = `Bob's thread ${uniqueName('t')}`;
    await postThread(bob, bobs);
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, `/thread/${thread.threadId}`);
    await page.locator('.lt-thread__byline').getByTestId('user-avatar').hover();
    await page.locator('[data-testid="user-card"][data-state="shown"]').waitFor();
    const card = page.getByTestId('user-card');
    expect(await card.getByTestId('card-name').textContent()).toBe(alice.nickname);
    expect(await card.getByTestId('count-threads').textContent()).toBe('1');
    expect(await card.getByTestId('signature').textContent()).toBe('这个人很懒，什么也没有留下');
    expect(await card.getByTestId('user-actions').count()).toBe(0);
    expect(await card.getByRole('button').count()).toBe(0);
    await e2e.screenshot(page, 'hover-card-own');

    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await open(page, '/');
    await avatarOnCard(page, bobs).hover();
    await page.locator('[data-testid="user-card"][data-state="shown"]').waitFor();
    expect(await card.getByTestId('follow-button').textContent()).toBe('Follow');
    expect(await card.getByTestId('block-button').textContent()).toBe('Block');
    expect(await card.getByTestId('signature').textContent()).toBe('No signature yet.');
    await page.waitForTimeout(150);
    await e2e.screenshot(page, 'hover-card-en');
    expect(errors).toEqual([]);
  });

  desktopOnly('asks a guest to log in first, and brings them back after login', async () => {
    const bob = await member();
    const guest = await member();
    const thread = await postThread(bob, `访客关注 ${uniqueName('t')}`);
    const { page, errors } = await e2e.page();
    await open(page, `/thread/${thread.threadId}`);
    await page.locator('.lt-thread__byline').getByTestId('user-avatar').hover();
    const card = page.locator('[data-testid="user-card"][data-state="shown"]');
    await card.waitFor();
    expect(await card.textContent()).toContain('登录后查看完整资料');
    const toast = toastSays(page, '请先登录');
    await card.getByTestId('follow-button').click();
    expect(await toast).toBe('info');
    await page.waitForURL((url) => url.pathname === '/user/login');
    expect(await jumpUrl(page)).toBe(`/thread/${thread.threadId}`);
    await loginThroughForm(page, guest);
    await page.waitForURL((url) => url.pathname === `/thread/${thread.threadId}`);
    expect(await jumpUrl(page)).toBeNull();
    // Nothing was followed on the guest's behalf.
    expect((await profileOf(guest, bob.id)).follow).toBe(0);
    expect(errors).toEqual([]);
  });

  mobileOnly('is not used on a phone: a tap on an avatar opens the member page', async () => {
    const bob = await member();
    const alice = await member();
    const title = `点头像 ${uniqueName('t')}`;
    await postThread(bob, title);
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, '/');
    await avatarOnCard(page, title).tap();
    await page.waitForURL((url) => url.pathname === `/user/${bob.id}`);
    await page.getByTestId('user-page').waitFor();
    expect(await page.getByTestId('profile-name').textContent()).toBe(bob.nickname);
    expect(await page.getByTestId('user-card').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  mobileOnly('sends a guest who taps an avatar to log in, then to the member page', async () => {
    const bob = await member();
    const guest = await member();
    const title = `访客点头像 ${uniqueName('t')}`;
    await postThread(bob, title);
    const { page, errors } = await e2e.page();
    await open(page, '/');
    const toast = toastSays(page, '请先登录');
    await avatarOnCard(page, title).tap();
    expect(await toast).toBe('info');
    await page.waitForURL((url) => url.pathname === '/user/login');
    expect(await jumpUrl(page)).toBe(`/user/${bob.id}`);
    await loginThroughForm(page, guest);
    await page.waitForURL((url) => url.pathname === `/user/${bob.id}`);
    await page.getByTestId('user-page').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('member page', () => {
  it("lists the member's threads, likes (when public) and fans, each fan with the viewer's follow button", async () => {
    const bob = await member(longNickname());
    const [carol, dave, alice] = [await member(), await member(), await member()];
    const first = `鲍勃的第一帖 ${uniqueName('t')}`;
    const second = `鲍勃的第二帖 ${uniqueName('t')}`;
    await postThread(bob, first);
    await postThread(bob, second);
    await carol.client.ok('POST', '/api/v3/follow.create', { toUserId: bob.id });
    await dave.client.ok('POST', '/api/v3/follow.create', { toUserId: bob.id });
    await bob.client.ok('POST', '/api/v3/users/update.user', { likesPublic: false, signature: LONG_SIGNATURE });

    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, `/user/${bob.id}`);
    expect(await page.title()).toContain(bob.nickname);
    expect(await page.getByTestId('profile-name').textContent()).toBe(bob.nickname);
    const threads = page.getByTestId('list-threads');
    await threads.getByRole('link', { name: first }).waitFor();
    await threads.getByRole('link', { name: second }).waitFor();
    expect(await page.getByTestId('count-fans').textContent()).toBe('2');
    await e2e.screenshot(page, 'user-page');

    await page.getByTestId('tab-liked').click();
    await page.waitForURL((url) => url.search === '?tab=liked');
    expect(await page.getByTestId('likes-hidden').textContent()).toBe('TA 没有公开赞过的主题');

    await page.getByTestId('tab-fans').click();
    await page.waitForURL((url) => url.search === '?tab=fans');
    const fans = page.getByTestId('list-fans').getByTestId('person');
    await fans.first().waitFor();
    expect(await fans.count()).toBe(2);
    const carolRow = fans.filter({ hasText: carol.nickname });
    await carolRow.getByTestId('follow-button').click();
    await carolRow.locator('[data-testid="follow-button"][data-follow="1"]').waitFor();
    expect((await profileOf(alice, carol.id)).follow).toBe(1);
    await e2e.screenshot(page, 'user-page-fans');

    // The tab is in the address: the server renders it on a reload.
    await open(page, `/user/${bob.id}?tab=fans`);
    expect(await page.getByTestId('list-fans').getByTestId('person').count()).toBe(2);
    expect(errors).toEqual([]);
  });

  it('speaks English, and blocking from it hides the member’s threads from the home list', async () => {
    const bob = await member();
    const alice = await member();
    const title = `会被屏蔽的主题 ${uniqueName('t')}`;
    await postThread(bob, title);
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await open(page, `/user/${bob.id}`);
    expect(await page.getByTestId('follow-button').textContent()).toBe('Follow');
    expect(await page.getByTestId('signature').textContent()).toBe('No signature yet.');
    await e2e.screenshot(page, 'user-page-en');
    await context.clearCookies({ name: 'locale' });
    await open(page, '/');
    await page.getByTestId('thread-card').filter({ hasText: title }).waitFor();
    await open(page, `/user/${bob.id}`);
    await page.getByTestId('block-button').click();
    expect(await toastSays(page, '已屏蔽')).toBe('success');
    await page.locator('[data-testid="block-button"][aria-pressed="true"]').waitFor();
    expect(await page.getByTestId('block-button').textContent()).toBe('取消屏蔽');
    await page.locator('header').getByRole('link', { name: '首页' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('thread-card').first().waitFor();
    await expect.poll(() => page.getByTestId('thread-card').filter({ hasText: title }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('blocking from the card', () => {
  desktopOnly("hides the blocked member's threads from the home list at once; unblocking from /my", async () => {
    const bob = await member(longNickname());
    const alice = await member();
    const title = `卡片屏蔽 ${uniqueName('t')}`;
    await postThread(bob, title);
    await bob.client.ok('POST', '/api/v3/users/update.user', { signature: LONG_SIGNATURE });
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, '/');
    const cardOnList = page.getByTestId('thread-card').filter({ hasText: title });
    await cardOnList.waitFor();
    await avatarOnCard(page, title).hover();
    const card = page.locator('[data-testid="user-card"][data-state="shown"]');
    await card.waitFor();
    await page.waitForTimeout(150);
    await e2e.screenshot(page, 'hover-card-long');
    await card.getByTestId('block-button').click();
    const toast = page.locator('.lt-toast', { hasText: '已屏蔽' });
    await toast.waitFor();
    expect(await toast.getAttribute('data-type')).toBe('success');
    // 1000 ms, without mask.
    expect(await page.locator('.lt-toast-layer--mask').count()).toBe(0);
    await cardOnList.waitFor({ state: 'detached' });
    await toast.waitFor({ state: 'detached', timeout: 2_000 });
    expect((await profileOf(alice, bob.id)).isDeny).toBe(true);

    await open(page, '/my?tab=blocked');
    const row = page.getByTestId('list-blocked').getByTestId('person');
    expect(await row.count()).toBe(1);
    await e2e.screenshot(page, 'my-blocked');
    await row.getByTestId('block-button').click();
    expect(await toastSays(page, '已取消屏蔽')).toBe('success');
    expect((await profileOf(alice, bob.id)).isDeny).toBe(false);
    expect(errors).toEqual([]);
  });
});

describe('personal centre', () => {
  it('edits the signature and uploads an avatar and a background; others see them', async () => {
    const alice = await member();
    const bob = await member();
    const title = `换头像 ${uniqueName('t')}`;
    await postThread(alice, title);
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, '/my');
    expect(await page.title()).toContain('个人中心');
    expect(await page.getByTestId('my-name').textContent()).toBe(alice.nickname);
    await e2e.screenshot(page, 'my-threads');

    await page.getByTestId('profile-edit').click();
    await page.getByLabel('签名', { exact: true }).fill('周末爬山，工作日写代码');
    await page.getByTestId('profile-save').click();
    await toastSays(page, '资料已保存');
    expect(await page.getByTestId('profile-header').getByTestId('signature').textContent()).toBe(
      '周末爬山，工作日写代码',
    );

    await page.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    const avatar = page.locator('.lt-profile__avatar img');
    await page.waitForFunction(() =>
      document.querySelector('.lt-profile__avatar img')?.getAttribute('src')?.startsWith('blob:'),
    );
    expect(await avatar.getAttribute('alt')).toBe('新头像预览');
    await e2e.screenshot(page, 'my-avatar-preview');
    await page.getByTestId('image-save').click();
    await toastSays(page, '图片已更新');
    await page.waitForFunction(() =>
      document.querySelector('.lt-profile__avatar img')?.getAttribute('src')?.startsWith('/uploads/avatars/'),
    );

    await page.getByTestId('background-input').setInputFiles({ name: 'bg.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('image-save').click();
    await toastSays(page, '图片已更新');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="profile-cover"]')?.getAttribute('style')?.includes('/uploads/backgrounds/'),
    );
    const saved = await profileOf(bob, alice.id);
    expect(saved.signature).toBe('周末爬山，工作日写代码');
    expect(saved.avatarUrl).toMatch(/^\/uploads\/avatars\//);
    expect(saved.backgroundUrl).toMatch(/^\/uploads\/backgrounds\//);
    await e2e.screenshot(page, 'my-edited');

    // Another member sees them on the page and (with a mouse) on the card.
    await context.clearCookies();
    await signIn(context, bob);
    await open(page, `/user/${alice.id}`);
    expect(await page.getByTestId('signature').textContent()).toBe('周末爬山，工作日写代码');
    expect(await page.locator('.lt-profile__avatar img').getAttribute('src')).toContain(saved.avatarUrl);
    if (e2e.device === 'desktop') {
      await open(page, '/');
      await avatarOnCard(page, title).hover();
      const card = page.locator('[data-testid="user-card"][data-state="shown"]');
      await card.waitFor();
      expect(await card.getByTestId('signature').textContent()).toBe('周末爬山，工作日写代码');
      expect(await card.locator('img').first().getAttribute('src')).toContain(saved.avatarUrl);
    }
    expect(errors).toEqual([]);
  });

  it('lists follows and fans, drafts and favourites in their tabs', async () => {
    const alice = await member();
    const bob = await member();
    await alice.client.ok('POST', '/api/v3/follow.create', { toUserId: bob.id });
    await bob.client.ok('POST', '/api/v3/follow.create', { toUserId: alice.id });
    await alice.client.ok('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: '还没写完的草稿',
      content: { text: '草稿正文' },
      draft: true,
    });
    const liked = await postThread(bob, `值得收藏 ${uniqueName('t')}`);
    await alice.client.ok('POST', '/api/v3/threads/operate', { id: liked.threadId, isFavorite: true });
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);

    await open(page, '/my?tab=follows');
    const follows = page.getByTestId('list-follows').getByTestId('person');
    // Rendered by the server: there at once.
    expect(await follows.count()).toBe(1);
    expect(await follows.getByTestId('follow-button').textContent()).toBe('互相关注');
    await e2e.screenshot(page, 'my-follows');
    await page.getByTestId('tab-fans').click();
    await page.waitForURL((url) => url.search === '?tab=fans');
    // The address changes before the new tab renders (the router's transition): wait for it.
    const fans = page.getByTestId('list-fans').getByTestId('person');
    await fans.first().waitFor();
    expect(await fans.count()).toBe(1);
    await page.getByTestId('tab-drafts').click();
    await page.getByTestId('list-drafts').getByText('还没写完的草稿').waitFor();
    await page.getByTestId('tab-favorites').click();
    await page.getByTestId('list-favorites').getByRole('link', { name: liked.title }).waitFor();
    await page.getByTestId('tab-liked').click();
    await page.locator('.lt-profile-section .lt-empty', { hasText: '还没有赞过主题' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('changes the password, the likes privacy and the language', async () => {
    const alice = await member();
    const bob = await member();
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, '/my?tab=settings');
    await e2e.screenshot(page, 'my-settings');

    await page.getByLabel('当前密码', { exact: true }).fill(PASSWORD);
    await page.getByLabel('新密码', { exact: true }).fill('new-Passw0rd-2');
    await page.getByLabel('确认新密码', { exact: true }).fill('new-Passw0rd-2');
    await page.getByTestId('password-save').click();
    await toastSays(page, '密码已修改');
    await ApiClient.login(e2e.baseUrl, alice.username, 'new-Passw0rd-2');

    const likes = page.getByTestId('likes-public');
    expect(await likes.isChecked()).toBe(true);
    await likes.click({ force: true });
    await toastSays(page, '已保存');
    expect(await likes.isChecked()).toBe(false);
    expect((await profileOf(bob, alice.id)).likesVisible).toBe(false);

    await page.getByTestId('locale-en').click({ force: true });
    await page
      .getByRole('heading', { name: 'Account settings' })
      .or(page.getByText('Change password').first())
      .waitFor();
    expect((await context.cookies()).find((c) => c.name === 'locale')?.value).toBe('en');
    await open(page, '/my?tab=settings');
    expect(await page.getByTestId('tab-settings').textContent()).toBe('Account settings');
    expect(await page.title()).toContain('Personal Center');
    await e2e.screenshot(page, 'my-settings-en');
    await page.getByTestId('tab-follows').click();
    await page.getByText('Not following anyone yet').waitFor();
    await e2e.screenshot(page, 'my-follows-en');
    expect(errors).toEqual([]);
  });
});

describe('@mentions', () => {
  it('suggests names after @ and a character; Enter inserts [@nickname](/user/id), Escape closes', async () => {
    const target = await member(`提及${uniqueName('').slice(-3)}`);
    const alice = await member();
    const { page, context, errors } = await e2e.page();
    await signIn(context, alice);
    await open(page, '/thread/post');
    const body = page.getByLabel('正文', { exact: true });
    const inserted = `[@${target.nickname}](/user/${target.id}) `;
    await body.click();
    await body.pressSequentially(`你好 @${target.username.slice(0, 6)}`);
    const list = page.getByTestId('mention-list');
    const option = list.getByTestId('mention-option').filter({ hasText: target.username });
    await option.waitFor();
    await e2e.screenshot(page, 'mention');
    // Choose it with the keyboard: down to it, then Enter.
    const options = await list.getByTestId('mention-option').allTextContents();
    const index = options.findIndex((text) => text.includes(target.username));
    for (let i = 0; i < index; i++) await body.press('ArrowDown');
    await body.press('Enter');
    await list.waitFor({ state: 'detached' });
    expect(await body.inputValue()).toBe(`你好 ${inserted}`);

    // A second one, closed with Escape: the text stays as typed.
    await body.pressSequentially(`和 @${target.username.slice(0, 3)}`);
    await list.waitFor();
    await body.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(await body.inputValue()).toBe(`你好 ${inserted}和 @${target.username.slice(0, 3)}`);

    // Escape holds for that mention while it is typed on; a new @ asks again, and a click inserts.
    await body.pressSequentially(target.username.slice(3, 4));
    await page.waitForTimeout(400);
    expect(await list.count()).toBe(0);
    await body.pressSequentially(` @${target.username}`);
    await list.getByTestId('mention-option').filter({ hasText: target.username }).click();
    await list.waitFor({ state: 'detached' });
    expect(await body.inputValue()).toBe(`你好 ${inserted}和 @${target.username.slice(0, 4)} ${inserted}`);

    // Published: the mention shows the nickname and links to the member's page; inline code is set apart.
    await body.pressSequentially('用 `npm run build` 构建');
    await page.getByLabel('标题', { exact: true }).fill(`提及 ${uniqueName('t')}`);
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const content = page.getByTestId('thread-content');
    const mention = content.locator(`a.mention[href="/user/${target.id}"]`).first();
    await mention.waitFor();
    expect(await mention.textContent()).toBe(`@${target.nickname}`);
    expect(await content.textContent()).not.toContain(target.username);
    const code = content.locator('code', { hasText: 'npm run build' });
    const style = await code.evaluate((el) => {
      const s = getComputedStyle(el);
      return { font: s.fontFamily, background: s.backgroundColor, padding: s.paddingLeft };
    });
    expect(style.font).toMatch(/mono/i);
    expect(style.background).not.toBe('rgba(0, 0, 0, 0)');
    expect(style.padding).not.toBe('0px');
    await e2e.screenshot(page, 'mention-posted');
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.reload();
    await hydrated(page);
    await content.locator(`a.mention[href="/user/${target.id}"]`).first().waitFor();
    await e2e.screenshot(page, 'mention-posted-en');
    expect(errors).toEqual([]);
  });
});
