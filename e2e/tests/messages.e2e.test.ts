import type { DialogItem, Page as ListPage, ThreadDetail } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../support/api';
import { useE2E } from '../support/harness';
import { messagesKit } from '../support/messages';

/** The message centre: dialogs, the chat, live delivery, the header badge (notices: notices.e2e). */
const e2e = useE2E();
const {
  desktopOnly,
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
} = messagesKit(e2e);

describe('private messages', () => {
  it('arrive live in the open list and the header badge; the chat answers with Enter; read marks go both ways', async () => {
    const alice = await member(`Alice${uniqueName('').slice(-4)}`);
    const bob = await member();
    const { page, errors } = await browserOf(bob);
    await open(page, '/message');
    await page.getByTestId('dialog-list').getByText('还没有私信', { exact: false }).waitFor();
    expect(await headerBadge(page).count()).toBe(0);
    if (e2e.device === 'desktop') await page.getByTestId('chat-placeholder').waitFor();

    // Alice writes (through the API): Bob's open page shows it without a reload, well before the 60-second poll.
    const first = await sendTo(alice, bob, '你好，鲍勃！周末下棋吗？');
    const row = dialogRow(page, alice);
    await row.waitFor({ timeout: LIVE_MS });
    expect(await row.getByTestId('dialog-last').textContent()).toBe('你好，鲍勃！周末下棋吗？');
    expect(await row.getByTestId('badge').textContent()).toBe('1');
    await expect.poll(() => headerBadge(page).textContent(), { timeout: LIVE_MS }).toBe('1');
    expect(await page.getByTestId('message-tab-index').getByTestId('badge').textContent()).toBe('1');
    await e2e.screenshot(page, 'message-list');

    // Opening the chat reads it: the badges go, and Alice's message shows as read on her side.
    await row.getByTestId('dialog-open').click();
    await page.waitForURL((url) => url.searchParams.get('page') === 'chat');
    expect(new URL(page.url()).searchParams.get('userId')).toBe(String(alice.id));
    const chat = page.getByTestId('chat');
    await chat.waitFor();
    expect(await chat.getByTestId('chat-name').textContent()).toBe(alice.nickname);
    await chatMessage(page, '你好，鲍勃！周末下棋吗？').waitFor();
    await expect.poll(() => headerBadge(page).count(), { timeout: LIVE_MS }).toBe(0);
    await expect
      .poll(async () => (await messagesOf(alice, first.dialogId))[0]?.isRead, { timeout: LIVE_MS })
      .toBe(true);

    // Bob answers: Shift+Enter is a new line, Enter sends.
    const input = chat.getByRole('textbox');
    await input.click();
    await page.keyboard.type('好啊');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('下午三点？');
    expect(await input.inputValue()).toBe('好啊\n下午三点？');
    await page.keyboard.press('Enter');
    const answer = chatMessage(page, '好啊\n下午三点？');
    await answer.waitFor();
    expect(await input.inputValue()).toBe('');
    expect(await answer.getAttribute('data-mine')).toBe('true');
    expect(await answer.getByTestId('read-mark').textContent()).toBe('未读');
    // Alice has it (through the API).
    const onAlicesSide = (await messagesOf(alice, first.dialogId))[0]!;
    expect(onAlicesSide).toMatchObject({ messageText: '好啊\n下午三点？', isMine: false });

    // Alice reads the dialog: Bob's mark turns to 已读 at once.
    await alice.client.ok('POST', '/api/v3/dialog.update', { dialogId: first.dialogId });
    await expect.poll(() => answer.getByTestId('read-mark').textContent(), { timeout: LIVE_MS }).toBe('已读');

    // A message arriving while the chat is open is shown at the bottom and read at once.
    const second = await sendTo(alice, bob, '三点见');
    await chatMessage(page, '三点见').waitFor({ timeout: LIVE_MS });
    await expect
      .poll(async () => (await messagesOf(alice, first.dialogId)).find((m) => m.id === second.id)?.isRead, {
        timeout: LIVE_MS,
      })
      .toBe(true);
    await expect.poll(() => headerBadge(page).count(), { timeout: LIVE_MS }).toBe(0);
    const texts = await chat.getByTestId('chat-text').allTextContents();
    expect(texts).toEqual(['你好，鲍勃！周末下棋吗？', '好啊\n下午三点？', '三点见']);
    await e2e.screenshot(page, 'message-chat');
    expect(errors).toEqual([]);
  });

  it("starts from a member's private message button: the first message creates the dialog", async () => {
    const carol = await member();
    const dave = await member(`Dave${uniqueName('').slice(-4)}`);
    const { page, errors } = await browserOf(carol);
    await open(page, `/user/${dave.id}`);
    await page.getByTestId('user-actions').getByTestId('message-button').click();
    await page.waitForURL((url) => url.searchParams.get('page') === 'chat');
    const chat = page.getByTestId('chat');
    await chat.getByText('还没有消息，打个招呼吧').waitFor();
    expect(await chat.getByTestId('chat-name').textContent()).toBe(dave.nickname);
    expect(
      (await carol.client.ok<{ dialogId: number | null }>('GET', `/api/v3/dialog.record?userId=${dave.id}`)).dialogId,
    ).toBeNull();

    await chat.getByRole('textbox').fill('你好，我是卡罗尔');
    await chat.getByTestId('chat-send').click();
    await chatMessage(page, '你好，我是卡罗尔').waitFor();
    const davesDialogs = await dave.client.ok<ListPage<DialogItem>>('GET', '/api/v3/dialog');
    expect(davesDialogs.pageData).toHaveLength(1);
    expect(davesDialogs.pageData[0]).toMatchObject({
      user: { id: carol.id },
      unreadCount: 1,
      lastMessage: { messageText: '你好，我是卡罗尔' },
    });
    // The second message goes into the dialog the first one made.
    await chat.getByRole('textbox').fill('有空聊聊');
    await page.keyboard.press('Enter');
    await chatMessage(page, '有空聊聊').waitFor();
    const again = await dave.client.ok<ListPage<DialogItem>>('GET', '/api/v3/dialog');
    expect(again.pageData).toHaveLength(1);
    expect(again.pageData[0]!.unreadCount).toBe(2);
    if (e2e.device === 'desktop') {
      // Beside the chat, the list now holds the dialog, marked as the open one.
      await dialogRow(page, dave).locator('[aria-current="page"]').waitFor();
    }
    expect(errors).toEqual([]);
  });

  desktopOnly("is reached from the hover card's private message button", async () => {
    const erin = await member();
    const frank = await member();
    const title = `私信入口 ${uniqueName('t')}`;
    await frank.client.ok<ThreadDetail>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title,
      content: { text: `${title}：正文` },
    });
    const { page, errors } = await browserOf(erin);
    await open(page, '/');
    await page.getByTestId('thread-card').filter({ hasText: title }).getByTestId('user-avatar').hover();
    const card = page.locator('[data-testid="user-card"][data-state="shown"]');
    await card.getByTestId('message-button').click();
    await page.waitForURL((url) => url.pathname === '/message' && url.searchParams.get('userId') === String(frank.id));
    await page.getByTestId('chat').getByRole('textbox').waitFor();
    expect(await page.getByTestId('chat-name').textContent()).toBe(frank.nickname);
    expect(errors).toEqual([]);
  });

  it('sends an image by the button and by pasting', async () => {
    const gina = await member();
    const hank = await member();
    const { dialogId } = await sendTo(hank, gina, '发张图看看');
    const { page, errors } = await browserOf(gina);
    await open(page, chatUrl(hank));
    const chat = page.getByTestId('chat');
    await chatMessage(page, '发张图看看').waitFor();

    await chat.getByTestId('chat-image-input').setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: PNG });
    const image = chat.getByTestId('chat-message').filter({ has: page.getByTestId('chat-image') });
    await image.first().waitFor();
    const [latest] = await messagesOf(hank, dialogId);
    expect(latest).toMatchObject({ isMine: false, messageText: '' });
    expect(latest!.imageUrl).toMatch(/^\/api\/v3\/attachments\/[A-Za-z0-9_-]+\.png$/);
    expect(await image.first().getByTestId('chat-image').getAttribute('src')).toBe(`${latest!.imageUrl}?level=100`);
    await expect
      .poll(() =>
        image
          .first()
          .getByTestId('chat-image')
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);

    // A pasted image goes out the same way; the text being written stays in the box.
    const input = chat.getByRole('textbox');
    await input.fill('草稿还在');
    await input.evaluate((element, base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG.toString('base64'));
    await expect.poll(() => image.count()).toBe(2);
    expect((await messagesOf(hank, dialogId)).filter((m) => m.imageUrl !== '')).toHaveLength(2);
    expect(await input.inputValue()).toBe('草稿还在');
    expect(errors).toEqual([]);
  });

  it('scrolls back through older messages, keeping the place', async () => {
    const ivy = await member();
    const jack = await member();
    // 35 messages, taking turns (each member stays under the per-minute limit).
    let dialogId = 0;
    for (let i = 1; i <= 35; i++) {
      const [from, to] = i % 2 ? [jack, ivy] : [ivy, jack];
      dialogId = (await sendTo(from, to, `第${i}条消息`)).dialogId;
    }
    const { page, errors } = await browserOf(ivy);
    await open(page, chatUrl(jack));
    const history = page.getByTestId('chat-history');
    await chatMessage(page, '第35条消息').waitFor();
    // The newest page (20), opened at the bottom.
    expect(await page.getByTestId('chat-message').count()).toBe(20);
    expect(await chatMessage(page, '第15条消息').count()).toBe(0);
    const atBottom = () => history.evaluate((el) => Math.abs(el.scrollHeight - el.clientHeight - el.scrollTop) < 2);
    await expect.poll(atBottom).toBe(true);

    // To the top: the older page loads above, and the message that was first stays in view.
    await history.evaluate((el) => el.scrollTo({ top: 0 }));
    await chatMessage(page, '第1条消息').waitFor();
    expect(await page.getByTestId('chat-message').count()).toBe(35);
    await page.getByText('没有更早的消息了').waitFor();
    const place = await history.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const kept = [...el.querySelectorAll('[data-testid="chat-text"]')].find((n) => n.textContent === '第16条消息');
      const at = kept!.getBoundingClientRect();
      return { scrollTop: el.scrollTop, inView: at.top >= box.top - 1 && at.bottom <= box.bottom + 1 };
    });
    expect(place.scrollTop).toBeGreaterThan(0);
    expect(place.inView).toBe(true);
    const texts = await page.getByTestId('chat-text').allTextContents();
    expect(texts).toEqual(Array.from({ length: 35 }, (_, i) => `第${i + 1}条消息`));

    // A new message while scrolled up does not pull the reader down; it is there at the bottom.
    await sendTo(jack, ivy, '最新一条');
    await chatMessage(page, '最新一条').waitFor({ timeout: LIVE_MS });
    expect(await history.evaluate((el) => el.scrollTop)).toBe(place.scrollTop);
    expect(dialogId).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it("shows the server's refusal in a toast and keeps the text", async () => {
    const kim = await member();
    const leo = await member();
    await leo.client.ok('POST', '/api/v3/users/deny.create', { id: kim.id });
    const { page } = await browserOf(kim);
    await open(page, chatUrl(leo));
    const input = page.getByTestId('chat').getByRole('textbox');
    await input.fill('你在吗');
    await page.keyboard.press('Enter');
    await toastSays(page, '对方已将你屏蔽');
    expect(await input.inputValue()).toBe('你在吗');
    expect(await page.getByTestId('chat-message').count()).toBe(0);
  });

  it('marks a held message as under review for its sender; a banned word is refused in a toast', async () => {
    const admin = await e2e.admin();
    await admin.ok('POST', '/api/stop-words/batch.v2', {
      data: { type: 'stop-words', words: ['私信待审词=|||{MOD}|', '私信违禁词=|||{BANNED}|'], overwrite: false },
    });
    const uma = await member();
    const vic = await member();
    const { dialogId } = await sendTo(vic, uma, '在吗');
    const { page, errors } = await browserOf(uma);
    await open(page, chatUrl(vic));
    const input = page.getByTestId('chat').getByRole('textbox');
    await input.fill('这句有私信待审词');
    await page.keyboard.press('Enter');
    const held = chatMessage(page, '这句有私信待审词');
    await held.waitFor();
    expect(await held.textContent()).toContain('审核中');
    expect(await held.getByTestId('read-mark').count()).toBe(0);
    // The other member does not see it.
    expect((await messagesOf(vic, dialogId)).map((m) => m.messageText)).toEqual(['在吗']);

    await input.fill('这句有私信违禁词');
    await page.keyboard.press('Enter');
    await toastSays(page, '包含违禁词「私信违禁词」');
    expect(await input.inputValue()).toBe('这句有私信违禁词');
    expect(errors).toEqual([]);
  });

  it('deletes a dialog for oneself only, after asking', async () => {
    const wes = await member();
    const xena = await member();
    await sendTo(xena, wes, '这段对话要删掉');
    const { page, errors } = await browserOf(wes);
    await open(page, '/message');
    const row = dialogRow(page, xena);
    await row.hover();
    page.once('dialog', (dialog) => void dialog.dismiss());
    await row.getByTestId('dialog-delete').click();
    await page.waitForTimeout(200);
    expect(await row.count()).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByTestId('dialog-delete').click();
    await toastSays(page, '对话已删除');
    await page.getByTestId('dialog-list').getByText('还没有私信', { exact: false }).waitFor();
    expect((await wes.client.ok<ListPage<DialogItem>>('GET', '/api/v3/dialog')).totalCount).toBe(0);
    expect((await xena.client.ok<ListPage<DialogItem>>('GET', '/api/v3/dialog')).totalCount).toBe(1);
    expect(errors).toEqual([]);
  });

  it('without a userId, logs the wrong user name and shows the list', async () => {
    const mia = await member();
    const { page, errors } = await browserOf(mia);
    await open(page, '/message?page=chat');
    await page.getByTestId('dialog-list').waitFor();
    expect(await page.getByTestId('chat').count()).toBe(0);
    expect(errors.some((text) => /wrong user name/.test(text))).toBe(true);
    expect(await page.getByTestId('message-tab-index').getAttribute('aria-current')).toBe('page');
  });

  it('speaks English (list, chat)', async () => {
    const nina = await member();
    const otto = await member(`Otto${uniqueName('').slice(-4)}`);
    const { dialogId } = await sendTo(otto, nina, 'Hello Nina, are you coming on Saturday?');
    await nina.client.ok('POST', '/api/v3/dialog/message.create', { dialogId, messageText: 'Yes, see you there.' });
    await otto.client.ok('POST', '/api/v3/dialog/message.create', { dialogId, messageText: 'Great!' });
    const { page, errors } = await browserOf(nina, 'en');
    await open(page, '/message');
    await dialogRow(page, otto).waitFor();
    expect(await page.getByTestId('message-tab-index').textContent()).toContain('Private messages');
    await e2e.screenshot(page, 'message-list-en');
    await dialogRow(page, otto).getByTestId('dialog-open').click();
    const chat = page.getByTestId('chat');
    await chatMessage(page, 'Great!').waitFor();
    expect(await chatMessage(page, 'Yes, see you there.').getByTestId('read-mark').textContent()).toBe('Read');
    expect(await chat.getByTestId('chat-send').textContent()).toBe('Send');
    await e2e.screenshot(page, 'message-chat-en');
    if (e2e.device === 'mobile') {
      await chat.getByTestId('chat-back').click();
      await page.waitForURL((url) => url.search === '');
      await dialogRow(page, otto).waitFor();
    }
    expect(errors).toEqual([]);
  });
});
