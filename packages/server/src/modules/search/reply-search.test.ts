import type { Page, SearchMatchedPost, ThreadItem } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as indexExistingReplies } from '../../db/migrations/2026112606-reply-search-fill.js';
import { block, buildCategory, buildGroup, buildReply, buildThread, pause } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { isReplyIndexed } from './reply-index.repository.js';
import { excerptAround } from './search.service.js';

/** Search finds words that only a reply or comment holds, with the reply, and never what the thread page hides. */

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;
let alice: User;
let bob: User;

const search = async (keyword: string, token?: string) => {
  const res = await t.get<Page<ThreadItem>>(
    `/api/v3/thread.list?perPage=50&filter[search]=${encodeURIComponent(keyword)}`,
    token,
  );
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data.pageData;
};
const found = async (keyword: string, token?: string) => (await search(keyword, token)).map((d) => d.threadId);
const matchOf = async (keyword: string, threadId: number, token?: string): Promise<SearchMatchedPost | null> =>
  (await search(keyword, token)).find((d) => d.threadId === threadId)?.matchedPost ?? null;
const indexed = (postId: number) => isReplyIndexed(t.server.database.db, t.server.database.dialect, postId);
const hide = (id: number, token: string) => t.post('/api/v3/posts.update', { id, isDeleted: true }, token);
const restore = (id: number) => t.post('/api/v3/posts.update', { id, isDeleted: false }, admin);

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  alice = await buildUser(t);
  bob = await buildUser(t);
  const res = await t.post(
    '/api/stop-words/batch.v2',
    { data: { type: 'stop-words', words: ['待审词={MOD}'], overwrite: true } },
    admin,
  );
  expect(res.Code).toBe(0);
});
afterAll(async () => {
  await t.close();
});

describe('words found only in replies', () => {
  it('finds the thread through its reply, with the reply, its place and the text around the match', async () => {
    const thread = await buildThread(t, alice.token, { title: '颐和园一日游', text: '周末去了颐和园，人很多。' });
    await buildReply(t, alice.token, thread.threadId, { text: '门票多少钱？' });
    const reply = await buildReply(t, bob.token, thread.threadId, { text: '我们沿着昆明湖走了一圈，风景很好。' });
    const results = await search('昆明湖');
    expect(results.map((r) => r.threadId)).toEqual([thread.threadId]);
    expect(results[0]).toMatchObject({ title: '颐和园一日游', user: { userId: alice.id } });
    expect(results[0]!.matchedPost).toEqual({
      postId: reply.id,
      isComment: false,
      replyPostId: null,
      user: { userId: bob.id, nickname: reply.user.nickname, avatar: reply.user.avatar },
      createdAt: reply.createdAt,
      excerpt: '我们沿着昆明湖走了一圈，风景很好。',
      position: 2,
      commentPosition: null,
    });
    // The thread's own words (a reply holds them too): the thread matched, no reply to show.
    await buildReply(t, bob.token, thread.threadId, { text: '颐和园的长廊也值得一看' });
    expect(await matchOf('颐和园', thread.threadId)).toBeNull();
    expect(await found('颐和园')).toEqual([thread.threadId]);
  });

  it('finds CJK words inside unspaced sentences of replies: one, two and more characters, every term', async () => {
    const thread = await buildThread(t, alice.token, { title: '旅行', text: '说说见闻。' });
    await buildReply(t, bob.token, thread.threadId, { text: '去年在洱海边骑自行车，晚上吃了烤乳扇。' });
    await buildReply(t, bob.token, thread.threadId, { text: 'Tried the Node.js build on a Pi, 很慢' });
    for (const word of ['洱海', '洱', '骑自行车', '烤乳扇', '海边骑', '洱海 乳扇', 'node.js', 'pi', 'NODE']) {
      expect(await found(word), word).toEqual([thread.threadId]);
    }
    // Every term in one reply: words spread over two replies, or over the thread and a reply, are not one match.
    expect(await found('洱海 很慢')).toEqual([]);
    expect(await found('见闻 洱海')).toEqual([]);
    // Markup is never matched, only the text.
    await buildReply(t, bob.token, thread.threadId, { text: '**加粗的话**' });
    expect(await found('加粗的话')).toEqual([thread.threadId]);
    expect(await found('**')).toEqual([]);
  });

  it('places a reply on its page and a comment under its reply', async () => {
    const thread = await buildThread(t, alice.token, { title: '长帖', text: '很多回复' });
    for (let i = 1; i <= 20; i += 1) await buildReply(t, bob.token, thread.threadId, { text: `第${i}楼` });
    const later = await buildReply(t, bob.token, thread.threadId, { text: '第二十一楼提到了玉渊潭' });
    // On the second page of 20: /thread/<id>?page=2#post-<id>.
    expect(await matchOf('玉渊潭', thread.threadId)).toMatchObject({ postId: later.id, position: 21 });

    const reply = await buildReply(t, bob.token, thread.threadId, { text: '一条回复' });
    await buildReply(t, alice.token, thread.threadId, { replyId: reply.id, text: '第一条评论' });
    const comment = await buildReply(t, alice.token, thread.threadId, {
      replyId: reply.id,
      text: '评论里说到香山红叶',
    });
    expect(await matchOf('香山红叶', thread.threadId)).toEqual(
      expect.objectContaining({
        postId: comment.id,
        isComment: true,
        replyPostId: reply.id,
        position: 22,
        commentPosition: 2,
      }),
    );
  });

  it('follows edits, deletions, restores and the review queue', async () => {
    const thread = await buildThread(t, alice.token, { title: '编辑', text: '正文' });
    const reply = await buildReply(t, bob.token, thread.threadId, { text: '原来写的是雁栖湖' });
    expect(await found('雁栖湖')).toEqual([thread.threadId]);
    expect(await indexed(reply.id)).toBe(true);

    await t.post('/api/v3/posts.update', { id: reply.id, content: '改成了慕田峪' }, bob.token);
    expect(await found('雁栖湖')).toEqual([]);
    expect(await found('慕田峪')).toEqual([thread.threadId]);

    await hide(reply.id, bob.token);
    expect(await found('慕田峪')).toEqual([]);
    expect(await indexed(reply.id)).toBe(false);
    await restore(reply.id);
    expect(await found('慕田峪')).toEqual([thread.threadId]);

    // An edit with a {MOD} word holds the reply for review: out of the search until approved.
    await t.post('/api/v3/posts.update', { id: reply.id, content: '慕田峪 待审词' }, bob.token);
    expect(await found('慕田峪')).toEqual([]);
    expect(await found('慕田峪', bob.token)).toEqual([]);
    expect(await indexed(reply.id)).toBe(false);
    await t.post('/api/backAdmin/manage.submit.review', { type: 'post', action: 'approve', ids: [reply.id] }, admin);
    expect(await found('慕田峪')).toEqual([thread.threadId]);

    const held = await buildReply(t, bob.token, thread.threadId, { text: '新写的司马台 待审词' });
    expect(await found('司马台')).toEqual([]);
    await t.post('/api/backAdmin/manage.submit.review', { type: 'post', action: 'ignore', ids: [held.id] }, admin);
    expect(await found('司马台')).toEqual([]);
    expect(await found('司马台', admin)).toEqual([]);
  });
});

describe('what the thread page hides is never found', () => {
  it('hides replies by blocked members, and comments under hidden replies or blocked members’ replies', async () => {
    const carol = await buildUser(t);
    const thread = await buildThread(t, alice.token, { title: '屏蔽', text: '正文' });
    const byBob = await buildReply(t, bob.token, thread.threadId, { text: '鲍勃说起了八达岭' });
    await buildReply(t, alice.token, thread.threadId, { replyId: byBob.id, text: '评论提到居庸关' });
    await block(t, carol.id, bob.id);
    expect(await found('八达岭', carol.token)).toEqual([]);
    expect(await found('居庸关', carol.token)).toEqual([]);
    expect(await found('八达岭', alice.token)).toEqual([thread.threadId]);
    expect(await found('居庸关')).toEqual([thread.threadId]);

    const byAlice = await buildReply(t, alice.token, thread.threadId, { text: '一条回复' });
    await buildReply(t, carol.token, thread.threadId, { replyId: byAlice.id, text: '评论说到十三陵' });
    expect(await found('十三陵')).toEqual([thread.threadId]);
    await hide(byAlice.id, alice.token);
    expect(await found('十三陵')).toEqual([]);
    expect(await found('十三陵', carol.token)).toEqual([]);
  });

  it('hides replies of deleted and held threads, and in categories whose posts the viewer may not read', async () => {
    const gone = await buildThread(t, alice.token, { title: '删掉的主题', text: '正文' });
    await buildReply(t, bob.token, gone.threadId, { text: '回复里有潭柘寺' });
    expect(await found('潭柘寺')).toEqual([gone.threadId]);
    await t.post('/api/v3/thread.delete', { threadId: gone.threadId }, alice.token);
    expect(await found('潭柘寺')).toEqual([]);

    const heldLater = await buildThread(t, alice.token, { title: '后来待审', text: '正文' });
    await buildReply(t, bob.token, heldLater.threadId, { text: '回复里有戒台寺' });
    await t.post('/api/v3/thread.update', { threadId: heldLater.threadId, content: { text: '待审词' } }, alice.token);
    expect(await found('戒台寺')).toEqual([]);
    expect(await found('戒台寺', bob.token)).toEqual([]);

    const closed = await buildCategory(t, admin);
    const inside = await buildThread(t, alice.token, { categoryId: closed, title: '内部', text: '正文' });
    await buildReply(t, bob.token, inside.threadId, { text: '回复里有卢沟桥' });
    const dave = await buildUser(t);
    // dave lists every category but reads posts only in category 1; erin lists category 1 only.
    await buildGroup(t, admin, ['viewThreads', 'category1.thread.viewPosts'], [dave.id]);
    const erin = await buildUser(t);
    await buildGroup(t, admin, ['category1.viewThreads', 'category1.thread.viewPosts'], [erin.id]);
    expect(await found('卢沟桥')).toEqual([inside.threadId]);
    expect(await found('卢沟桥', dave.token)).toEqual([]);
    expect(await found('内部', dave.token)).toEqual([inside.threadId]);
    expect(await found('卢沟桥', erin.token)).toEqual([]);
    const open = await buildThread(t, alice.token, { title: '公开', text: '正文' });
    await buildReply(t, bob.token, open.threadId, { text: '回复里也有卢沟桥' });
    expect(await found('卢沟桥', dave.token)).toEqual([open.threadId]);
    expect(await found('卢沟桥', erin.token)).toEqual([open.threadId]);
  });

  it('finds a paid thread by its replies (they are free) but never by its paid part', async () => {
    const paid = await t.post<ThreadItem>(
      '/api/v3/thread.create',
      { categoryId: 1, title: '付费', content: { text: '免费部分。付费部分提到圆明园' }, price: '3', freeWords: 0.35 },
      admin,
    );
    expect(paid.Code).toBe(0);
    await buildReply(t, bob.token, paid.Data.threadId, { text: '回复说起了北海公园' });
    expect(await found('圆明园', bob.token)).toEqual([]);
    expect(await found('北海公园', bob.token)).toEqual([paid.Data.threadId]);
  });
});

describe('the migration', () => {
  it('indexes the replies and comments that existed before, and no hidden or held one', async () => {
    const thread = await buildThread(t, alice.token, { title: '迁移', text: '正文' });
    const reply = await buildReply(t, bob.token, thread.threadId, { text: '旧回复提到景山' });
    await pause();
    const comment = await buildReply(t, alice.token, thread.threadId, { replyId: reply.id, text: '旧评论提到白塔' });
    const hidden = await buildReply(t, bob.token, thread.threadId, { text: '被删的回复' });
    await hide(hidden.id, bob.token);
    const held = await buildReply(t, bob.token, thread.threadId, { text: '待审词的回复' });
    const { db, dialect } = t.server.database;
    await db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await trx.deleteFrom('postSearchGrams' as never).execute();
      await trx.deleteFrom('postSearch' as never).execute();
    });
    expect(await found('景山', bob.token)).toEqual([]);

    // Written straight to the database: asked as a member, whose answers the guest cache never keeps.
    await indexExistingReplies(db as never);
    expect(await found('景山', bob.token)).toEqual([thread.threadId]);
    expect(await found('白塔', bob.token)).toEqual([thread.threadId]);
    expect(await matchOf('白', thread.threadId, bob.token)).toMatchObject({ postId: comment.id });
    expect(await indexed(hidden.id)).toBe(false);
    expect(await indexed(held.id)).toBe(false);
    expect(await indexed(thread.postId)).toBe(false);
  });
});

describe('excerpts', () => {
  it('shows a window around the first match, cut with …', () => {
    const long = `${'前'.repeat(100)}关键词${'后'.repeat(100)}`;
    const excerpt = excerptAround(long, ['关键词']);
    expect([...excerpt]).toHaveLength(122);
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.indexOf('关键词')).toBe(31);
    expect(excerptAround('短文本', ['无'])).toBe('短文本');
    expect(excerptAround(`${'x'.repeat(200)}`, ['无'])).toBe(`${'x'.repeat(120)}…`);
    expect(excerptAround(`${'x'.repeat(200)}End`, ['end']).endsWith('xEnd')).toBe(true);
  });
});
