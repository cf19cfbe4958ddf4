import { describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { peopleKit } from '../support/people';

/** People: a member's page, the personal centre, blocking, @mention suggestions (the hover card: people-card). */
const e2e = useE2E();
const {
  desktopOnly,
  PASSWORD,
  PNG,
  longNickname,
  LONG_SIGNATURE,
  member,
  signIn,
  open,
  postThread,
  profileOf,
  avatarOnCard,
  toastSays,
} = peopleKit(e2e);

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
