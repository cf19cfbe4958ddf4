import { describe, expect } from 'vitest';
import { uniqueName } from '../support/api';
import { useE2E } from '../support/harness';
import { peopleKit } from '../support/people';

/** People: the hover card on avatars. */
const e2e = useE2E();
const {
  desktopOnly,
  mobileOnly,
  member,
  signIn,
  open,
  postThread,
  profileOf,
  jumpUrl,
  avatarOnCard,
  toastSays,
  loginThroughForm,
} = peopleKit(e2e);

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
