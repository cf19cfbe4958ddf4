import { Code, GroupId, type DialogItem, type DialogMessageItem, type Page } from '@luntan/shared';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { buildUser, startTestServer } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';
import { memberPermissions, setGroupPermissions } from '../../test/factories.js';

type User = Awaited<ReturnType<typeof buildUser>>;

const t = useTestServer({ env: { RATE_LIMIT_DIALOG_MESSAGES: '1000' } });

const send = (from: User, to: User | number, messageText: string, extra: Record<string, unknown> = {}) =>
  t.post<{ dialogId: number; id: number }>(
    '/api/v3/dialog.create',
    { recipientUserId: typeof to === 'number' ? to : to.id, messageText, ...extra },
    from.token,
  );
const reply = (from: User, dialogId: number, messageText: string) =>
  t.post<{ dialogId: number; id: number }>('/api/v3/dialog/message.create', { dialogId, messageText }, from.token);
const dialogs = async (u: User) => (await t.get<Page<DialogItem>>('/api/v3/dialog', u.token)).Data;
const messages = (u: User | string, dialogId: number) =>
  t.get<Page<DialogMessageItem>>(`/api/v3/dialog/message?dialogId=${dialogId}`, typeof u === 'string' ? u : u.token);
const unread = async (u: User) =>
  (await t.get<{ dialogMessageUnread: number; totalUnread: number }>('/api/v3/unreadnotification', u.token)).Data;
const rowCount = async (table: 'dialogMessages' | 'dialogs') =>
  Number(
    (
      await t.server.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('private messages', () => {
  it('creates a dialog, reuses it, lists it with the last message and unread, and marks it read', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const first = await send(alice, bob, '你好，鲍勃');
    expect(first.Code).toBe(0);
    const again = await t.post<{ dialogId: number }>(
      '/api/v3/dialog.create',
      { recipientUsername: bob.username, messageText: '还在吗？' },
      alice.token,
    );
    expect(again.Data.dialogId).toBe(first.Data.dialogId);
    expect((await dialogs(bob)).pageData).toMatchObject([
      {
        dialogId: first.Data.dialogId,
        user: { id: alice.id },
        unreadCount: 2,
        lastMessage: { messageText: '还在吗？' },
      },
    ]);
    expect((await unread(bob)).dialogMessageUnread).toBe(2);
    // Answering reads what came before.
    const answer = await reply(bob, first.Data.dialogId, '在的');
    expect(answer.Code).toBe(0);
    expect((await dialogs(bob)).pageData[0]).toMatchObject({
      unreadCount: 0,
      lastMessage: { messageText: '在的', isMine: true },
    });
    expect((await unread(bob)).dialogMessageUnread).toBe(0);
    expect((await unread(alice)).dialogMessageUnread).toBe(1);

    const list = await messages(bob, first.Data.dialogId);
    expect(list.Data.pageData.map((m) => m.messageText)).toEqual(['在的', '还在吗？', '你好，鲍勃']);
    expect(list.Data.pageData[0]).toMatchObject({ isMine: true, isRead: false });
    expect((await t.post('/api/v3/dialog.update', { dialogId: first.Data.dialogId }, alice.token)).Code).toBe(0);
    expect((await unread(alice)).dialogMessageUnread).toBe(0);
    expect((await messages(bob, first.Data.dialogId)).Data.pageData[0]).toMatchObject({ isMine: true, isRead: true });
    const seenByAlice = await messages(alice, first.Data.dialogId);
    expect(seenByAlice.Data.pageData.find((m) => m.messageText === '你好，鲍勃')).toMatchObject({ isRead: true });
    expect(
      (await t.get<{ dialogId: number | null }>(`/api/v3/dialog.record?userId=${bob.id}`, alice.token)).Data,
    ).toEqual({ dialogId: first.Data.dialogId });
    const stranger = await buildUser(t);
    expect(
      (await t.get<{ dialogId: number | null }>(`/api/v3/dialog.record?userId=${stranger.id}`, bob.token)).Data,
    ).toEqual({ dialogId: null });
  });

  it('deletes a dialog for one member only; a new message brings it back with only what came after', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const { dialogId } = (await send(alice, bob, '第一条')).Data;
    expect((await t.post('/api/v3/dialog.delete', { dialogId }, bob.token)).Code).toBe(0);
    expect((await dialogs(bob)).totalCount).toBe(0);
    expect((await unread(bob)).dialogMessageUnread).toBe(0);
    expect((await dialogs(alice)).totalCount).toBe(1);
    await reply(alice, dialogId, '第二条');
    expect((await messages(bob, dialogId)).Data.pageData.map((m) => m.messageText)).toEqual(['第二条']);
    expect((await messages(alice, dialogId)).Data.totalCount).toBe(2);
    expect((await unread(bob)).dialogMessageUnread).toBe(1);
  });

  it('is read and written by its two members only: -4002 for a third, administrators included', async () => {
    const [alice, bob, carol] = [await buildUser(t), await buildUser(t), await buildUser(t)];
    const { dialogId } = (await send(alice, bob, '私事')).Data;
    expect((await messages(carol, dialogId)).Code).toBe(Code.UNAUTHORIZED);
    expect((await messages(t.admin, dialogId)).Code).toBe(Code.UNAUTHORIZED);
    expect((await reply(carol, dialogId, '插话')).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.post('/api/v3/dialog.update', { dialogId }, carol.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.post('/api/v3/dialog.delete', { dialogId }, t.admin)).Code).toBe(Code.UNAUTHORIZED);
    expect((await messages(carol, 999999)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/v3/dialog')).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('refuses, storing nothing: yourself, blocks both ways, no permission, the switch off, bad input', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const before = [await rowCount('dialogs'), await rowCount('dialogMessages')];
    expect((await send(alice, alice, '自言自语')).Code).toBe(Code.INVALID_PARAMETER);
    await t.post('/api/v3/users/deny.create', { id: alice.id }, bob.token);
    expect((await send(alice, bob, '在吗')).Code).toBe(Code.BLOCKED_BY_USER);
    expect((await send(bob, alice, '在吗')).Code).toBe(Code.USER_DENIED);
    await t.post('/api/v3/users/deny.delete', { id: alice.id }, bob.token);
    expect((await send(alice, 999999, '有人吗')).Code).toBe(Code.RESOURCE_NOT_FOUND);
    for (const body of [
      { recipientUserId: bob.id, messageText: '' },
      { recipientUserId: bob.id, messageText: 'x'.repeat(1001) },
      { messageText: '给谁？' },
      { recipientUserId: bob.id, messageText: 'x', imageUrl: 'https://evil.example/pixel.png' },
      { recipientUserId: bob.id, messageText: 'x', imageUrl: 'javascript:alert(1)' },
    ]) {
      expect((await t.post('/api/v3/dialog.create', body, alice.token)).Code, JSON.stringify(body)).toBe(
        Code.INVALID_PARAMETER,
      );
    }
    const saved = await memberPermissions(t, t.admin);
    await setGroupPermissions(
      t,
      t.admin,
      GroupId.MEMBER,
      saved.filter((p) => p !== 'dialog.create'),
    );
    try {
      expect((await send(alice, bob, '没有权限')).Code).toBe(Code.UNAUTHORIZED);
    } finally {
      await setGroupPermissions(t, t.admin, GroupId.MEMBER, saved);
    }
    const setSwitch = (value: boolean) =>
      t.post('/api/settings.v2', { data: [{ key: 'dialogOpen', value, tag: 'default' }] }, t.admin);
    expect((await setSwitch(false)).Code).toBe(0);
    try {
      expect((await send(alice, bob, '关掉了')).Code).toBe(Code.DIALOG_DISABLED);
    } finally {
      await setSwitch(true);
    }
    expect([await rowCount('dialogs'), await rowCount('dialogMessages')]).toEqual(before);
  });

  it('screens messages with the dialog stop words: banned refused, replaced, and {MOD} held for the sender only', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const words = {
      data: {
        type: 'stop-words',
        words: ['私信禁词=|||{BANNED}|', '私信替换=|||哔|', '私信审核=|||{MOD}|'],
        overwrite: true,
      },
    };
    expect((await t.post('/api/stop-words/batch.v2', words, t.admin)).Code).toBe(0);
    const banned = await send(alice, bob, '这里有私信禁词');
    expect(banned).toMatchObject({ Code: Code.CONTENT_BANNED, Message: '私信内容包含违禁词「私信禁词」' });
    const { dialogId } = (await send(alice, bob, '一个私信替换而已')).Data;
    expect((await messages(bob, dialogId)).Data.pageData[0]!.messageText).toBe('一个哔而已');
    expect((await reply(alice, dialogId, '要私信审核的话')).Code).toBe(0);
    expect((await messages(bob, dialogId)).Data.pageData.map((m) => m.messageText)).toEqual(['一个哔而已']);
    expect((await messages(alice, dialogId)).Data.pageData[0]).toMatchObject({
      messageText: '要私信审核的话',
      isApproved: false,
    });
    expect((await unread(bob)).dialogMessageUnread).toBe(1);
  });

  it("sends an image by attachment id (only one's own upload) or by our image URL", async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const boundary = 'dialogImage';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nimage\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.call<{ id: number; url: string }>('POST', '/api/v3/attachments', {
      token: t.admin,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(uploaded.body.Code).toBe(0);
    expect((await send(alice, bob, '', { attachmentId: uploaded.body.Data.id })).Code).toBe(Code.INVALID_PARAMETER);
    const mine = await send(bob, alice, '', { imageUrl: uploaded.body.Data.url });
    expect(mine.Code).toBe(0);
    expect((await messages(alice, mine.Data.dialogId)).Data.pageData[0]).toMatchObject({
      imageUrl: uploaded.body.Data.url,
      messageText: '',
    });
  });

  it('refuses an audio attachment as an image, as it refuses a missing one, storing nothing', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const saved = await memberPermissions(t, t.admin);
    await setGroupPermissions(t, t.admin, GroupId.MEMBER, [...saved, 'thread.insertAudio']);
    try {
      // An MP3 that file-type recognises: an ID3 header and two MPEG frames.
      const frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
      const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0, 0]), frame, frame]);
      const boundary = 'dialogAudio';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\naudio\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="duration"\r\n\r\n3\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\n` +
            'Content-Type: audio/mpeg\r\n\r\n',
        ),
        mp3,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const audio = await t.call<{ id: number }>('POST', '/api/v3/attachments', {
        token: alice.token,
        body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(audio.body.Code).toBe(0);
      const before = [await rowCount('dialogs'), await rowCount('dialogMessages')];
      const missing = await send(alice, bob, '听听这个', { attachmentId: 999999 });
      expect(missing).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'attachmentId' } });
      const refused = await send(alice, bob, '听听这个', { attachmentId: audio.body.Data.id });
      expect(refused).toMatchObject({
        Code: Code.INVALID_PARAMETER,
        Message: missing.Message,
        Data: { field: 'attachmentId' },
      });
      const { dialogId } = (await send(bob, alice, '发来看看')).Data;
      const inDialog = await t.post(
        '/api/v3/dialog/message.create',
        { dialogId, messageText: '听听这个', attachmentId: audio.body.Data.id },
        alice.token,
      );
      expect(inDialog).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'attachmentId' } });
      expect([await rowCount('dialogs'), await rowCount('dialogMessages')]).toEqual([before[0]! + 1, before[1]! + 1]);
    } finally {
      await setGroupPermissions(t, t.admin, GroupId.MEMBER, saved);
    }
  });

  it('stores 50 messages sent at once in one dialog and counts them unread exactly', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const { dialogId } = (await send(alice, bob, '开始')).Data;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => reply(alice, dialogId, `第 ${i} 条`)));
    expect(answers.every((a) => a.Code === 0)).toBe(true);
    expect(new Set(answers.map((a) => a.Data.id)).size).toBe(50);
    expect((await messages(bob, dialogId)).Data.totalCount).toBe(51);
    expect((await unread(bob)).dialogMessageUnread).toBe(51);
    expect((await dialogs(bob)).pageData[0]!.unreadCount).toBe(51);
  });
});

describe('held private messages in the back office', () => {
  it('lists what {MOD} held; approving delivers it, ignoring keeps it from the recipient, deleting removes it', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const words = { data: { type: 'stop-words', words: ['待审私信=|||{MOD}|'], overwrite: true } };
    expect((await t.post('/api/stop-words/batch.v2', words, t.admin)).Code).toBe(0);
    const { dialogId } = (await send(alice, bob, '普通的一句')).Data;
    const ids: number[] = [];
    for (const text of ['待审私信一', '待审私信二', '待审私信三'])
      ids.push((await reply(alice, dialogId, text)).Data.id);
    const held = await t.get<Page<{ id: number; sender: { id: number }; recipient: { id: number } }>>(
      '/api/backAdmin/manage.dialog.messages?perPage=50',
      t.admin,
    );
    expect(held.Code).toBe(0);
    const mine = held.Data.pageData.filter((m) => ids.includes(m.id));
    expect(mine).toHaveLength(3);
    expect(mine[0]).toMatchObject({ sender: { id: alice.id }, recipient: { id: bob.id } });
    expect((await t.get('/api/backAdmin/manage.dialog.messages', bob.token)).Code).toBe(Code.UNAUTHORIZED);

    const review = (action: string, which: number[]) =>
      t.post<{ changed: number }>('/api/backAdmin/manage.dialog.review', { ids: which, action }, t.admin);
    expect((await review('approve', [ids[0]!])).Data.changed).toBe(1);
    expect((await review('ignore', [ids[1]!])).Data.changed).toBe(1);
    expect((await review('delete', [ids[2]!])).Data.changed).toBe(1);
    // Delivered messages are not reviewed again.
    expect((await review('delete', [ids[0]!])).Data.changed).toBe(0);
    const seen = (await messages(bob, dialogId)).Data.pageData.map((m) => m.messageText);
    expect(seen).toEqual(['待审私信一', '普通的一句']);
    expect((await unread(bob)).dialogMessageUnread).toBe(2);
    expect((await dialogs(bob)).pageData[0]!.lastMessage).toMatchObject({ messageText: '待审私信一' });
    const ignored = await t.get<Page<{ id: number }>>(
      '/api/backAdmin/manage.dialog.messages?filter[isApproved]=2',
      t.admin,
    );
    expect(ignored.Data.pageData.map((m) => m.id)).toContain(ids[1]);
  });
});

describe('the per-member rate of private messages', () => {
  it('refuses the message over RATE_LIMIT_DIALOG_MESSAGES a minute with -4029', async () => {
    const limited = await startTestServer({ env: { RATE_LIMIT_DIALOG_MESSAGES: '3' } });
    try {
      const [alice, bob] = [await buildUser(limited), await buildUser(limited)];
      const sendHere = (text: string) =>
        limited.post('/api/v3/dialog.create', { recipientUserId: bob.id, messageText: text }, alice.token);
      for (const text of ['一', '二', '三']) expect((await sendHere(text)).Code).toBe(0);
      expect((await sendHere('四')).Code).toBe(Code.TOO_MANY_REQUESTS);
      expect(
        (await limited.post('/api/v3/dialog.create', { recipientUserId: alice.id, messageText: '回' }, bob.token)).Code,
      ).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
