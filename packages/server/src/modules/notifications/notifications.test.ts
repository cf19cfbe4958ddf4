import {
  Code,
  mentionMarkdown,
  type NotificationItem,
  type NotificationTplItem,
  type Page,
  type UnreadCounters,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../core/live.js';
import { buildCategory, buildGroup, buildReply, buildThread } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { MERGE_WINDOW_MS } from './notice-sender.js';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

let serial = 0;
/** A member with a readable nickname (the notices quote it). */
const member = async () => {
  const nickname = `成员${++serial}`;
  return { ...(await buildUser(t, { nickname })), nickname };
};

/** Lists (and so reads) the member's notices. */
const notices = async (token: string, query = '') => {
  const res = await t.get<Page<NotificationItem>>(`/api/v3/notification?perPage=50${query}`, token);
  expect(res.Code).toBe(0);
  return res.Data.pageData;
};
const unread = async (token: string) => (await t.get<UnreadCounters>('/api/v3/unreadnotification', token)).Data;
/** The member's rows, read from the table (which neither reads them nor needs the member to be let in). */
const rowsOf = (userId: number) =>
  t.server.database.db.selectFrom('notifications').selectAll().where('userId', '=', userId).orderBy('id').execute();
const like = (token: string, postId: number, isLiked = true) =>
  t.post('/api/v3/posts.update', { id: postId, isLiked }, token);
const template = async (typeName: string) =>
  (
    await t.get<NotificationTplItem[]>(
      `/api/notification.v2/tpl/detail?typeName=${encodeURIComponent(typeName)}`,
      admin,
    )
  ).Data[0]!;
const switchTemplate = async (typeName: string, status: 0 | 1) => {
  const res = await t.post(
    '/api/backAdmin/notification/tpl/update',
    { id: (await template(typeName)).id, status },
    admin,
  );
  expect(res.Code).toBe(0);
};

describe('replies and comments', () => {
  it('a reply tells the thread’s author; a comment tells the reply’s author and the comment it answers', async () => {
    const [alice, bob, carol, dave] = [await member(), await member(), await member(), await member()];
    const thread = await buildThread(t, alice.token, { title: '爱丽丝的主题' });
    const reply = await buildReply(t, bob.token, thread.threadId, { text: '鲍勃的回复' });

    const [toAlice] = await notices(alice.token);
    expect(toAlice).toMatchObject({
      type: 'replied',
      category: 'thread',
      title: '有人回复了你',
      content: `${bob.nickname}回复了你：鲍勃的回复`,
      threadId: thread.threadId,
      postId: reply.id,
      replyPostId: null,
      fromUser: { id: bob.id, nickname: bob.nickname, avatarUrl: '' },
      readAt: null,
    });

    const comment = await buildReply(t, carol.token, thread.threadId, { text: '卡罗尔的评论', replyId: reply.id });
    const [toBob] = await notices(bob.token);
    expect(toBob).toMatchObject({ type: 'replied', postId: comment.id, replyPostId: reply.id });
    expect(toBob!.content).toContain('卡罗尔的评论');
    // The thread's author hears of replies to the thread, not of comments under someone's reply.
    expect(await rowsOf(alice.id)).toHaveLength(1);

    const answer = await buildReply(t, dave.token, thread.threadId, { text: '戴夫的回答', commentPostId: comment.id });
    expect(await notices(carol.token)).toMatchObject([{ type: 'replied', postId: answer.id, replyPostId: reply.id }]);
    expect((await notices(bob.token))[0]).toMatchObject({ type: 'replied', postId: answer.id });
  });

  it('tells nobody about their own reply, like or comment', async () => {
    const alice = await member();
    const thread = await buildThread(t, alice.token);
    const reply = await buildReply(t, alice.token, thread.threadId);
    await buildReply(t, alice.token, thread.threadId, { replyId: reply.id });
    expect((await like(alice.token, thread.postId)).Code).toBe(0);
    expect((await like(alice.token, reply.id)).Code).toBe(0);
    // Someone else's reply in the same thread is told: the rule is about the actor, not the thread.
    const bob = await member();
    await buildReply(t, bob.token, thread.threadId);
    expect((await rowsOf(alice.id)).map((r) => r.type)).toEqual(['replied']);
  });

  it('a held reply tells nobody until it is approved', async () => {
    const words = await t.post(
      '/api/stop-words/batch.v2',
      { data: { type: 'stop-words', words: ['先审后发={MOD}'], overwrite: true } },
      admin,
    );
    expect(words.Code).toBe(0);
    const [alice, bob] = [await member(), await member()];
    const thread = await buildThread(t, alice.token);
    const held = await t.post<{ id: number; isApproved: boolean }>(
      '/api/v3/posts.create',
      { id: thread.threadId, content: '先审后发的回复' },
      bob.token,
    );
    expect(held.Data.isApproved).toBe(false);
    expect(await rowsOf(alice.id)).toHaveLength(0);
    const res = await t.post(
      '/api/backAdmin/manage.submit.review',
      { type: 'post', ids: [held.Data.id], action: 'approve' },
      admin,
    );
    expect(res.Code).toBe(0);
    expect(await notices(alice.token)).toMatchObject([{ type: 'replied', postId: held.Data.id }]);
    expect(await notices(bob.token)).toMatchObject([{ type: 'system', title: '内容审核通过', postId: held.Data.id }]);
  });
});

describe('mentions', () => {
  it('tells each mentioned user once; an edit tells only the newly mentioned', async () => {
    const [alice, bob, carol, dave] = [await member(), await member(), await member(), await member()];
    const thread = await buildThread(t, alice.token, { title: '提到人的主题', text: `你好 @${bob.username}` });
    expect(await notices(bob.token)).toMatchObject([
      { type: 'related', category: 'thread', title: '有人@了你', threadId: thread.threadId, postId: thread.postId },
    ]);
    expect((await rowsOf(bob.id))[0]!.content).toBe(`${alice.nickname}在“提到人的主题”中提到了你`);

    // A reply mentioning the thread's author and another: the author is told of the reply (once), the other of the mention.
    const reply = await buildReply(t, carol.token, thread.threadId, {
      text: `@${alice.username} @${dave.username} 看看`,
    });
    expect((await rowsOf(alice.id)).map((r) => r.type)).toEqual(['replied']);
    expect(await notices(dave.token)).toMatchObject([{ type: 'related', postId: reply.id }]);

    const edit = await t.post(
      '/api/v3/posts.update',
      { id: reply.id, content: `@${dave.username} @${bob.username} 改了` },
      carol.token,
    );
    expect(edit.Code).toBe(0);
    expect(await rowsOf(dave.id)).toHaveLength(1);
    expect((await rowsOf(bob.id)).map((r) => r.postId)).toEqual([thread.postId, reply.id]);
    expect((await rowsOf(alice.id)).map((r) => r.type)).toEqual(['replied']);
  });

  it('a mention link (what the editor inserts) tells the member it names, once', async () => {
    const [alice, bob] = [await member(), await member()];
    const text = `你好 ${mentionMarkdown({ id: bob.id, nickname: bob.nickname })}`;
    const thread = await buildThread(t, alice.token, { title: '按编号提到', text });
    expect(await notices(bob.token)).toMatchObject([{ type: 'related', postId: thread.postId }]);
    const edit = await t.post(
      '/api/v3/thread.update',
      { threadId: thread.threadId, content: { text: `${text}！` } },
      alice.token,
    );
    expect(edit.Code).toBe(0);
    expect(await rowsOf(bob.id)).toHaveLength(1);
  });

  it('drops the mention of a user who blocked the author, and any notice from a blocked user', async () => {
    const [alice, bob, carol, dave] = [await member(), await member(), await member(), await member()];
    expect((await t.post('/api/v3/users/deny.create', { id: bob.id }, carol.token)).Code).toBe(0);
    expect((await t.post('/api/v3/users/deny.create', { id: bob.id }, alice.token)).Code).toBe(0);
    const thread = await buildThread(t, alice.token);
    await buildReply(t, bob.token, thread.threadId, { text: `@${carol.username} @${dave.username}` });
    expect((await like(bob.token, thread.postId)).Code).toBe(0);
    expect(await rowsOf(dave.id)).toHaveLength(1);
    expect(await rowsOf(carol.id)).toHaveLength(0);
    expect(await rowsOf(alice.id)).toHaveLength(0);
  });
});

describe('likes', () => {
  it('tells the author of a liked thread or reply, quoting it', async () => {
    const [alice, bob] = [await member(), await member()];
    const thread = await buildThread(t, alice.token, { title: '值得一赞' });
    const reply = await buildReply(t, alice.token, thread.threadId, { text: '回复也值得' });
    await like(bob.token, thread.postId);
    await like(bob.token, reply.id);
    const list = await notices(alice.token);
    expect(list).toMatchObject([
      { type: 'liked', category: 'thread', title: '有人赞了你', postId: reply.id, fromUser: { id: bob.id } },
      { type: 'liked', postId: thread.postId, threadId: thread.threadId },
    ]);
    expect(list[1]!.content).toBe(`${bob.nickname}赞了你的“值得一赞”`);
    expect(list[0]!.content).toContain('回复也值得');
  });

  it('merges a burst of likes of one post into one unread notice', async () => {
    const alice = await member();
    const fans = [await member(), await member(), await member()];
    const thread = await buildThread(t, alice.token, { title: '热门' });
    for (const fan of fans) expect((await like(fan.token, thread.postId)).Code).toBe(0);
    // Taking a like back and giving it again adds nobody.
    await like(fans[0]!.token, thread.postId, false);
    await like(fans[0]!.token, thread.postId);
    expect(await rowsOf(alice.id)).toHaveLength(1);
    expect((await unread(alice.token)).threadUnread).toBe(1);
    const [merged] = await notices(alice.token);
    expect(merged).toMatchObject({ type: 'liked', fromUser: { id: fans[2]!.id } });
    expect(merged!.content).toBe(`${fans[2]!.nickname}等 3 人赞了你的“热门”`);

    // Once read, a new like is a new notice; so is one after the window.
    const late = await member();
    await like(late.token, thread.postId);
    expect(await rowsOf(alice.id)).toHaveLength(2);
    const old = new Date(Date.now() - MERGE_WINDOW_MS - 1000).toISOString();
    await t.server.database.db
      .updateTable('notifications')
      .set({ createdAt: old })
      .where('userId', '=', alice.id)
      .execute();
    await like((await member()).token, thread.postId);
    expect(await rowsOf(alice.id)).toHaveLength(3);
  });
});

describe('who may read the thread', () => {
  /** A member whose group reads, replies and likes in category 1 only. */
  const outsider = async () => {
    const m = await member();
    await buildGroup(
      t,
      admin,
      ['category1.viewThreads', 'category1.thread.viewPosts', 'category1.thread.reply', 'category1.thread.likePosts'],
      [m.id],
    );
    return m;
  };
  const detailCode = async (threadId: number, token: string) =>
    (await t.get(`/api/v3/thread.detail?threadId=${threadId}`, token)).Code;

  it('a mention in a thread the member may not read tells them nothing (nor quotes its title)', async () => {
    const m = await outsider();
    const closed = await buildCategory(t, admin);
    const secret = await buildThread(t, admin, { categoryId: closed, title: '机密标题', text: `你好 @${m.username}` });
    expect(await detailCode(secret.threadId, m.token)).toBe(Code.UNAUTHORIZED);
    // The same mention where the member may read is told (the group lets mentions through at all).
    const open = await buildThread(t, admin, { title: '公开标题', text: `你好 @${m.username}` });
    expect((await rowsOf(m.id)).map((r) => [r.type, r.threadId])).toEqual([['related', open.threadId]]);
  });

  it('replies and likes in a thread moved where the member may not read tell them nothing', async () => {
    const [m, alice] = [await outsider(), await member()];
    const thread = await buildThread(t, alice.token, { title: '后来搬走' });
    const reply = await buildReply(t, m.token, thread.threadId, { text: 'M 的回复' });
    expect((await like(alice.token, reply.id)).Code).toBe(0);
    // Listed, so read: a later like would start a new notice rather than join this one.
    expect((await notices(m.token)).map((n) => n.type)).toEqual(['liked']);

    const closed = await buildCategory(t, admin);
    const moved = await t.post('/api/v3/threads/operate', { id: thread.threadId, categoriesId: closed }, admin);
    expect(moved.Code).toBe(0);
    expect(await detailCode(thread.threadId, m.token)).toBe(Code.UNAUTHORIZED);
    await buildReply(t, alice.token, thread.threadId, { text: '爱丽丝的机密评论', replyId: reply.id });
    await buildReply(t, alice.token, thread.threadId, { text: `又提到 @${m.username}` });
    const bob = await member();
    expect((await like(bob.token, reply.id)).Code).toBe(0);
    expect((await rowsOf(m.id)).map((r) => r.type)).toEqual(['liked']);
    // Those who may read it are still told: the thread's author hears of a reply there.
    const bobs = await buildReply(t, bob.token, thread.threadId, { text: '鲍勃的回复' });
    expect((await rowsOf(alice.id)).map((r) => r.postId)).toEqual([reply.id, bobs.id]);
  });
});

describe('follows', () => {
  it('tells the followed user (account tab); following again tells nothing more', async () => {
    const [alice, bob] = [await member(), await member()];
    expect((await t.post('/api/v3/follow.create', { toUserId: alice.id }, bob.token)).Code).toBe(0);
    expect((await t.post('/api/v3/follow.create', { toUserId: alice.id }, bob.token)).Code).toBe(0);
    expect(await unread(alice.token)).toMatchObject({ accountUnread: 1, threadUnread: 0, totalUnread: 1 });
    expect(await notices(alice.token)).toMatchObject([
      { type: 'followed', category: 'account', title: '有新的关注者', fromUser: { id: bob.id }, threadId: null },
    ]);
  });
});

describe('templates', () => {
  it('a template switched off sends nothing; switched on again, it does', async () => {
    const [alice, bob] = [await member(), await member()];
    const thread = await buildThread(t, alice.token);
    await switchTemplate('内容回复通知', 0);
    try {
      await buildReply(t, bob.token, thread.threadId);
      expect(await rowsOf(alice.id)).toHaveLength(0);
    } finally {
      await switchTemplate('内容回复通知', 1);
    }
    await buildReply(t, bob.token, thread.threadId);
    expect(await rowsOf(alice.id)).toHaveLength(1);
  });

  it('renders the template as the administrator edited it', async () => {
    const tpl = await template('内容点赞通知');
    const edit = (title: string, content: string) =>
      t.post('/api/backAdmin/notification/tpl/update', { id: tpl.id, title, content }, admin);
    expect((await edit('{actor} 点了赞', '{username}：{actor} 赞了 {content}')).Code).toBe(0);
    try {
      const [alice, bob] = [await member(), await member()];
      const thread = await buildThread(t, alice.token, { title: '模板' });
      await like(bob.token, thread.postId);
      expect(await notices(alice.token)).toMatchObject([
        { title: `${bob.nickname} 点了赞`, content: `${alice.username}：${bob.nickname} 赞了 模板` },
      ]);
    } finally {
      await edit(tpl.title, tpl.content);
    }
  });
});

describe('the message centre', () => {
  it('counts private messages beside the notices (one statement), each in its own counter and all in the total', async () => {
    const [alice, bob] = [await member(), await member()];
    await t.post('/api/v3/follow.create', { toUserId: alice.id }, bob.token);
    for (const text of ['first', 'second']) {
      const sent = await t.post('/api/v3/dialog.create', { recipientUserId: alice.id, messageText: text }, bob.token);
      expect(sent.Code).toBe(0);
    }
    expect(await unread(alice.token)).toEqual({
      totalUnread: 3,
      dialogMessageUnread: 2,
      accountUnread: 1,
      financialUnread: 0,
      threadUnread: 0,
    });
    // The sender has read what they sent, and has no notice.
    expect(await unread(bob.token)).toEqual({
      totalUnread: 0,
      dialogMessageUnread: 0,
      accountUnread: 0,
      financialUnread: 0,
      threadUnread: 0,
    });
  });

  it('counts unread rows per tab; listing reads what it lists, by type, and the counters drop', async () => {
    const [alice, bob] = [await member(), await member()];
    const thread = await buildThread(t, alice.token);
    await buildReply(t, bob.token, thread.threadId);
    await buildReply(t, bob.token, thread.threadId);
    await like(bob.token, thread.postId);
    await t.post('/api/v3/follow.create', { toUserId: alice.id }, bob.token);
    expect(await unread(alice.token)).toEqual({
      totalUnread: 4,
      dialogMessageUnread: 0,
      accountUnread: 1,
      financialUnread: 0,
      threadUnread: 3,
    });

    const replied = await notices(alice.token, '&filter[type]=replied');
    expect(replied.map((n) => [n.type, n.readAt])).toEqual([
      ['replied', null],
      ['replied', null],
    ]);
    expect(await unread(alice.token)).toMatchObject({ totalUnread: 2, threadUnread: 1, accountUnread: 1 });
    expect((await notices(alice.token, '&filter[type]=replied'))[0]!.readAt).not.toBeNull();

    const several = await notices(alice.token, '&filter[type]=liked,followed');
    expect(several.map((n) => n.type).sort()).toEqual(['followed', 'liked']);
    expect((await unread(alice.token)).totalUnread).toBe(0);

    // Pages: only the listed page is read.
    await buildReply(t, bob.token, thread.threadId);
    await buildReply(t, bob.token, thread.threadId);
    const page = await t.get<Page<NotificationItem>>('/api/v3/notification?perPage=1&page=2', alice.token);
    expect(page.Data).toMatchObject({ currentPage: 2, perPage: 1, totalCount: 6, totalPage: 6 });
    expect((await unread(alice.token)).threadUnread).toBe(1);
  });

  it('refuses an unknown type, and lists every type without a filter', async () => {
    const alice = await member();
    for (const bad of ['nope', 'replied,nope', 'x'.repeat(201)]) {
      const res = await t.get(`/api/v3/notification?filter[type]=${bad}`, alice.token);
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
      expect(res.Data).toMatchObject({ field: 'filter.type' });
    }
    expect((await t.get('/api/v3/notification?filter[type]=', alice.token)).Code).toBe(0);
    expect((await t.get('/api/v3/notification?filter[type]=system,rewarded,withdrawal', alice.token)).Code).toBe(0);
  });

  it('deletes only one’s own notices: someone else’s id changes nothing (-4004)', async () => {
    const [alice, bob] = [await member(), await member()];
    const thread = await buildThread(t, alice.token);
    await buildReply(t, bob.token, thread.threadId);
    await buildReply(t, bob.token, thread.threadId);
    const [first, second] = (await rowsOf(alice.id)).map((r) => r.id);

    const theirs = await t.post('/api/v3/notification.delete', { id: first }, bob.token);
    expect(theirs.Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(await rowsOf(alice.id)).toHaveLength(2);

    const mixed = await t.post<{ deleted: number }>(
      '/api/v3/notification.delete',
      { id: `${first},999999` },
      alice.token,
    );
    expect(mixed).toMatchObject({ Code: 0, Data: { deleted: 1 } });
    expect((await rowsOf(alice.id)).map((r) => r.id)).toEqual([second]);
    expect((await unread(alice.token)).threadUnread).toBe(1);
    expect((await t.post('/api/v3/notification.delete', { id: first }, alice.token)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    for (const bad of [{}, { id: 'a,b' }, { id: 0 }]) {
      expect((await t.post('/api/v3/notification.delete', bad, alice.token)).Code).toBe(Code.INVALID_PARAMETER);
    }
  });

  it('asks a guest to sign in', async () => {
    expect((await t.get('/api/v3/notification')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.get('/api/v3/unreadnotification')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.post('/api/v3/notification.delete', { id: 1 })).Code).toBe(Code.JUMP_TO_LOGIN);
  });
});

describe('delivery', () => {
  it('tells the user’s open pages at once', async () => {
    const [alice, bob] = [await member(), await member()];
    const events: LiveEvent[] = [];
    const stop = t.app.ctx.live.subscribe(alice.id, (e) => events.push(e));
    try {
      const thread = await buildThread(t, alice.token);
      await buildReply(t, bob.token, thread.threadId);
      await t.post('/api/v3/follow.create', { toUserId: alice.id }, bob.token);
      expect(events).toEqual([
        { kind: 'notification', category: 'thread' },
        { kind: 'notification', category: 'account' },
      ]);
      await notices(alice.token);
      expect(events.at(-1)).toEqual({ kind: 'unread' });
    } finally {
      stop();
    }
  });

  it('never fails the action when a notice cannot be made', async () => {
    const [alice, bob] = [await member(), await member()];
    const thread = await buildThread(t, alice.token);
    const db = t.server.database.db;
    // Delivery fails after the notice is stored: the notice stays, the reply and the like stand.
    const live = t.app.ctx.live;
    const publish = live.publish.bind(live);
    live.publish = () => Promise.reject(new Error('transport down'));
    try {
      const res = await t.post('/api/v3/posts.create', { id: thread.threadId, content: '照样发出' }, bob.token);
      expect(res.Code).toBe(0);
      expect((await like(bob.token, thread.postId)).Code).toBe(0);
    } finally {
      live.publish = publish;
    }
    expect(await db.selectFrom('posts').select('id').where('threadId', '=', thread.threadId).execute()).toHaveLength(2);
    expect((await rowsOf(alice.id)).map((r) => r.type)).toEqual(['replied', 'liked']);
  });
});
