import { Code, GroupId, type NotificationItem, type Page, type ThreadDetail } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReply, buildThread } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

/** What administrators do to a member's content and account, told to the member as system notices. */

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  const words = await t.post(
    '/api/stop-words/batch.v2',
    { data: { type: 'stop-words', words: ['送审={MOD}'], overwrite: true } },
    admin,
  );
  expect(words.Code).toBe(0);
});
afterAll(async () => {
  await t.close();
});

const notices = async (token: string) => {
  const res = await t.get<Page<NotificationItem>>('/api/v3/notification?perPage=50', token);
  expect(res.Code).toBe(0);
  return res.Data.pageData;
};
const rowsOf = (userId: number) =>
  t.server.database.db.selectFrom('notifications').selectAll().where('userId', '=', userId).orderBy('id').execute();
const adminId = async () =>
  (
    await t.server.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', ADMIN.username)
      .executeTakeFirstOrThrow()
  ).id;
/** `token`'s member blocks the administrator. */
const blockAdmin = async (token: string) =>
  expect((await t.post('/api/v3/users/deny.create', { id: await adminId() }, token)).Code).toBe(0);
const operate = (body: Record<string, unknown>, token = admin) => t.post('/api/v3/threads/operate', body, token);
const review = (type: 'thread' | 'post', ids: number[], action: string) =>
  t.post('/api/backAdmin/manage.submit.review', { type, ids, action }, admin);
const heldThread = async (token: string, title: string) => {
  const res = await t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title, content: { text: `送审 @${ADMIN.username}` } },
    token,
  );
  expect(res.Data.isApproved).toBe(false);
  return res.Data;
};

describe('threads and replies', () => {
  it('sticky and essence tell the author once each, as system notices without the moderator', async () => {
    const author = await buildUser(t);
    const thread = await buildThread(t, author.token, { title: '好主题' });
    expect((await operate({ id: thread.threadId, isSticky: true, isEssence: true })).Code).toBe(0);
    // Already sticky and essence: nothing new to tell; taking them away tells nothing.
    expect((await operate({ id: thread.threadId, isSticky: true })).Code).toBe(0);
    expect((await operate({ id: thread.threadId, isSticky: false, isEssence: false })).Code).toBe(0);
    const list = await notices(author.token);
    expect(list).toMatchObject([
      { type: 'system', category: 'account', title: '内容被设为精华', threadId: thread.threadId, fromUser: null },
      { type: 'system', title: '内容被置顶', postId: thread.postId },
    ]);
    expect(list[1]!.content).toBe(`${author.username}，你发布的“好主题”已被置顶。`);
  });

  it('deleting someone’s thread or reply tells them; deleting one’s own tells nobody', async () => {
    const [author, other] = [await buildUser(t), await buildUser(t)];
    const byThreadDelete = await buildThread(t, author.token, { title: '删一' });
    const byOperate = await buildThread(t, author.token, { title: '删二' });
    const reply = await buildReply(t, author.token, byOperate.threadId, { text: '删三' });
    const own = await buildThread(t, other.token);
    expect((await t.post('/api/v3/thread.delete', { threadId: own.threadId }, other.token)).Code).toBe(0);
    expect((await t.post('/api/v3/posts.update', { id: reply.id, isDeleted: true }, admin)).Code).toBe(0);
    expect((await t.post('/api/v3/thread.delete', { threadId: byThreadDelete.threadId }, admin)).Code).toBe(0);
    expect((await operate({ id: byOperate.threadId, isDeleted: true })).Code).toBe(0);
    const list = await notices(author.token);
    expect(list.map((n) => [n.title, n.threadId, n.postId])).toEqual([
      ['内容被删除', byOperate.threadId, byOperate.postId],
      ['内容被删除', byThreadDelete.threadId, byThreadDelete.postId],
      ['内容被删除', byOperate.threadId, reply.id],
    ]);
    expect(list[2]!.content).toContain('“删三”');
    expect(await rowsOf(other.id)).toHaveLength(0);
  });

  it('a member who blocked the moderator still hears what was done to their content (the site speaks)', async () => {
    const author = await buildUser(t);
    await blockAdmin(author.token);
    const thread = await buildThread(t, author.token, { title: '屏蔽了管理员' });
    const reply = await buildReply(t, author.token, thread.threadId, { text: '被隐藏的回复' });
    expect((await t.post('/api/v3/posts.update', { id: reply.id, isDeleted: true }, admin)).Code).toBe(0);
    expect((await operate({ id: thread.threadId, isEssence: true })).Code).toBe(0);
    expect((await operate({ id: thread.threadId, isDeleted: true })).Code).toBe(0);
    expect((await notices(author.token)).map((n) => [n.title, n.postId, n.fromUser])).toEqual([
      ['内容被删除', thread.postId, null],
      ['内容被设为精华', thread.postId, null],
      ['内容被删除', reply.id, null],
    ]);
  });

  it('the review queue tells the author of each approved, ignored or deleted thread or reply', async () => {
    const author = await buildUser(t);
    const [a, b, c] = [
      await heldThread(author.token, '待审甲'),
      await heldThread(author.token, '待审乙'),
      await heldThread(author.token, '待审丙'),
    ];
    expect(await rowsOf(author.id)).toHaveLength(0);
    expect((await review('thread', [a.threadId], 'approve')).Code).toBe(0);
    expect((await review('thread', [b.threadId], 'ignore')).Code).toBe(0);
    expect((await review('thread', [c.threadId], 'delete')).Code).toBe(0);
    const open = await buildThread(t, author.token);
    const reply = await t.post<{ id: number }>(
      '/api/v3/posts.create',
      { id: open.threadId, content: '送审的回复' },
      author.token,
    );
    expect((await review('post', [reply.Data.id], 'ignore')).Code).toBe(0);

    const list = await notices(author.token);
    expect(list.map((n) => [n.title, n.threadId])).toEqual([
      ['内容审核未通过', open.threadId],
      ['内容被删除', c.threadId],
      ['内容审核未通过', b.threadId],
      ['内容审核通过', a.threadId],
    ]);
    expect(list[3]!.content).toBe(`${author.username}，你发布的“待审甲”已通过审核。`);
    expect(list[0]).toMatchObject({ postId: reply.Data.id, type: 'system', fromUser: null });
    // The approved thread mentions the administrator, who is told now that it is visible (and only of that one).
    const mentions = (await notices(admin)).filter((n) => n.type === 'related');
    expect(mentions.map((n) => n.threadId)).toEqual([a.threadId]);
  });
});

describe('accounts', () => {
  const setRegisterValidate = (value: boolean) =>
    t.post('/api/settings.v2', { data: [{ key: 'registerValidate', value, tag: 'default' }] }, admin);

  it('approving a registration tells the user; rejecting tells why; ignoring tells nothing', async () => {
    expect((await setRegisterValidate(true)).Code).toBe(0);
    let users: Awaited<ReturnType<typeof buildUser>>[];
    try {
      users = [await buildUser(t), await buildUser(t), await buildUser(t)];
    } finally {
      await setRegisterValidate(false);
    }
    const [ok, no, later] = users;
    const res = await t.post(
      '/api/backAdmin/users/examine',
      {
        data: [
          { id: ok!.id, status: 0 },
          { id: no!.id, status: 3, rejectReason: '资料不全' },
          { id: later!.id, status: 4 },
        ],
      },
      admin,
    );
    expect(res.Code).toBe(0);
    expect(await notices(ok!.token)).toMatchObject([{ type: 'system', category: 'account', title: '注册审核通过' }]);
    // A rejected user cannot sign in to read it; it waits in the table.
    expect((await rowsOf(no!.id)).map((r) => r.content)).toEqual([
      `${no!.username}，你的注册申请未通过审核，原因：资料不全`,
    ]);
    expect(await rowsOf(later!.id)).toHaveLength(0);
  });

  it('banning, unbanning and changing groups tell the user; the administrator’s own changes tell nobody', async () => {
    const user = await buildUser(t);
    const update = (body: Record<string, unknown>) => t.post('/api/backAdmin/users/update.user', body, admin);
    expect((await update({ id: user.id, status: 1, reason: '刷屏' })).Code).toBe(0);
    expect((await t.get('/api/v3/notification', user.token)).Code).toBe(Code.USER_BANNED);
    expect((await update({ id: user.id, status: 0 })).Code).toBe(0);
    expect((await update({ id: user.id, groupIds: [GroupId.FREE_TRIAL] })).Code).toBe(0);
    // The same groups again change nothing.
    expect((await update({ id: user.id, groupId: GroupId.FREE_TRIAL })).Code).toBe(0);
    const list = await notices(user.token);
    expect(list.map((n) => [n.type, n.title, n.content])).toEqual([
      ['system', '用户组已调整', `${user.username}，你的用户组已由普通会员调整为免费试用。`],
      ['system', '账号已解除禁用', `${user.username}，你的账号已恢复正常。`],
      ['system', '账号被禁用', `${user.username}，你的账号已被禁用，原因：刷屏`],
    ]);

    const adminUserId = await adminId();
    expect((await update({ id: adminUserId, groupIds: [GroupId.ADMINISTRATOR, GroupId.MEMBER] })).Code).toBe(0);
    expect((await rowsOf(adminUserId)).filter((r) => r.title === '用户组已调整')).toHaveLength(0);
    expect((await update({ id: adminUserId, groupIds: [GroupId.ADMINISTRATOR] })).Code).toBe(0);
  });

  it('a user who blocked the administrator still hears of a ban and a change of groups', async () => {
    const user = await buildUser(t);
    await blockAdmin(user.token);
    const update = (body: Record<string, unknown>) => t.post('/api/backAdmin/users/update.user', body, admin);
    expect((await update({ id: user.id, status: 1, reason: '刷屏' })).Code).toBe(0);
    expect((await update({ id: user.id, status: 0 })).Code).toBe(0);
    expect((await update({ id: user.id, groupIds: [GroupId.FREE_TRIAL] })).Code).toBe(0);
    expect((await notices(user.token)).map((n) => [n.title, n.fromUser])).toEqual([
      ['用户组已调整', null],
      ['账号已解除禁用', null],
      ['账号被禁用', null],
    ]);
  });
});
