import { GroupId, type Page, type ThreadItem, type TopicsPage } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { setGroupPermissions } from '../../test/factories.js';
import { useTestServer } from '../../test/fixture.js';

/** `#name#` makes or links a topic; thread_topic follows the posts; topics.list and thread.list filter[topicId]. */

const t = useTestServer();

const topics = async (query: string, token?: string) => {
  const res = await t.get<TopicsPage>(`/api/v3/topics.list?${query}`, token);
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data;
};
const named = async (name: string) => {
  const page = await topics(`filter[content]=${encodeURIComponent(name)}`);
  return page.pageData.find((p) => p.content.toLowerCase() === name.toLowerCase());
};
const threadsOf = async (topicId: number, token?: string) => {
  const res = await t.get<Page<ThreadItem>>(`/api/v3/thread.list?filter[topicId]=${topicId}&perPage=50`, token);
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data;
};
const links = (topicId: number) =>
  t.server.database.db
    .selectFrom('threadTopic')
    .select('threadId')
    .where('topicId', '=', topicId)
    .execute()
    .then((rows) => rows.map((r) => r.threadId).sort((a, b) => a - b));

describe('topics', () => {
  it('a thread with #旅行# and a reply with #摄影# make both topics, linked, listed and counted', async () => {
    const alice = await t.buildMember();
    const bob = await t.buildMember();
    const thread = await t.buildThread(alice, { title: '周末出游', text: '去杭州#旅行#，顺便看看西湖。' });
    const travel = await named('旅行');
    expect(travel).toMatchObject({ content: '旅行', userId: alice.id, threadCount: 1 });
    expect(thread.content.html).toContain(`<a class="topic" href="/topic/${travel!.topicId}">#旅行#</a>`);

    const reply = await t.buildReply(bob, thread.threadId, { text: '带上相机#摄影# 吧' });
    const photo = await named('摄影');
    expect(photo).toMatchObject({ content: '摄影', userId: bob.id, threadCount: 1 });
    expect(reply.content.html).toContain(`<a class="topic" href="/topic/${photo!.topicId}">#摄影#</a>`);
    expect(await links(travel!.topicId)).toEqual([thread.threadId]);
    expect(await links(photo!.topicId)).toEqual([thread.threadId]);

    // The list's total on a page that is not full (not counted), a full page and a page past the end (counted).
    const all = await topics('perPage=50');
    expect(all.totalCount).toBe(all.pageData.length);
    expect(all.totalCount).toBeGreaterThanOrEqual(2);
    expect((await topics('perPage=1')).totalCount).toBe(all.totalCount);
    const past = await topics(`perPage=1&page=${all.totalCount + 1}`);
    expect(past).toMatchObject({ totalCount: all.totalCount, pageData: [] });

    // thread.list filter[topicId]
    const listed = await threadsOf(travel!.topicId);
    expect(listed.pageData.map((d) => d.threadId)).toEqual([thread.threadId]);
    expect(listed.totalCount).toBe(1);

    // One topic by id, its counts afresh; search with isNewTopic.
    const one = await topics(`filter[topicId]=${photo!.topicId}`);
    expect(one.pageData).toHaveLength(1);
    expect(one.pageData[0]).toMatchObject({ topicId: photo!.topicId, threadCount: 1, nickname: bob.username });
    expect((await topics('filter[content]=旅')).isNewTopic).toBe(true);
    expect((await topics('filter[content]=旅行')).isNewTopic).toBe(false);
  });

  it('names are case-insensitive, at most 20 characters; never in code or links', async () => {
    const alice = await t.buildMember();
    const long = '一二三四五六七八九十一二三四五六七八九十一';
    const th = await t.buildThread(alice, {
      text: `#Golang# and #golang#, #${long}#, \`#代码#\`, [#链接#](https://example.com), a.com/#锚点#, C# and F#`,
    });
    const go = await named('golang');
    expect(go?.content).toBe('Golang');
    expect(th.content.html).toContain(`<a class="topic" href="/topic/${go!.topicId}">#golang#</a>`);
    expect(th.content.html).toContain(`#${long}#`);
    const made = await t.server.database.db.selectFrom('topics').select('content').execute();
    for (const name of [long, '代码', '链接', '锚点', 'and F']) expect(made.map((r) => r.content)).not.toContain(name);
    expect(th.content.html).toContain('<code>#代码#</code>');
    expect(th.content.html).not.toContain('/topic/" ');
  });

  it('a deleted thread leaves the topic page and its count; restored, it comes back', async () => {
    const alice = await t.buildMember();
    const kept = await t.buildThread(alice, { text: '#美食# 第一篇' });
    const gone = await t.buildThread(alice, { text: '#美食# 第二篇' });
    const food = (await named('美食'))!;
    expect(food.threadCount).toBe(2);
    expect((await threadsOf(food.topicId)).pageData.map((d) => d.threadId)).toEqual([gone.threadId, kept.threadId]);
    expect((await t.post('/api/v3/thread.delete', { threadId: gone.threadId }, alice.token)).Code).toBe(0);
    expect((await named('美食'))!.threadCount).toBe(1);
    expect((await threadsOf(food.topicId)).pageData.map((d) => d.threadId)).toEqual([kept.threadId]);
    expect((await t.post('/api/v3/threads/operate', { id: gone.threadId, isDeleted: false }, t.admin)).Code).toBe(0);
    expect((await named('美食'))!.threadCount).toBe(2);
  });

  it('an edit that drops the topic unlinks it; a deleted reply takes its topic off the thread', async () => {
    const alice = await t.buildMember();
    const th = await t.buildThread(alice, { text: '#读书# 笔记' });
    const books = (await named('读书'))!;
    const edit = await t.post(
      '/api/v3/thread.update',
      { threadId: th.threadId, content: { text: '笔记，没有话题' } },
      alice.token,
    );
    expect(edit.Code).toBe(0);
    expect(await links(books.topicId)).toEqual([]);
    expect((await named('读书'))!.threadCount).toBe(0);

    const reply = await t.buildReply(alice, th.threadId, { text: '补充 #读书#' });
    expect(await links(books.topicId)).toEqual([th.threadId]);
    expect((await t.post('/api/v3/posts.update', { id: reply.id, isDeleted: true }, alice.token)).Code).toBe(0);
    expect(await links(books.topicId)).toEqual([]);
  });

  it('hot topics: those with visible threads, most threads first', async () => {
    const alice = await t.buildMember();
    await t.buildThread(alice, { text: '#热门话题# 一' });
    await t.buildThread(alice, { text: '#热门话题# 二' });
    await t.buildThread(alice, { text: '#热门话题# 三' });
    const hot = await topics('filter[hot]=1&perPage=50');
    expect(hot.pageData[0]!.content).toBe('热门话题');
    expect(hot.pageData.every((p) => p.threadCount > 0)).toBe(true);
    const counts = hot.pageData.map((p) => p.threadCount);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  });

  it('at most 10 topics per post; the eleventh stays text', async () => {
    const alice = await t.buildMember();
    const names = Array.from({ length: 11 }, (_, i) => `限额${i + 1}`);
    const th = await t.buildThread(alice, { text: names.map((n) => `#${n}#`).join(' ') });
    expect(await named('限额10')).toBeDefined();
    expect(await named('限额11')).toBeUndefined();
    expect(th.content.html).toContain('#限额11#');
    expect(th.content.html).not.toContain('#限额11#</a>');
  });

  it('a thread hidden from the viewer never shows on the topic page', async () => {
    const alice = await t.buildMember();
    const hidden = await t.buildCategory({ name: '内部话题区' });
    const secret = await t.buildThread(alice, { categoryId: hidden, text: '#隐私# 内部' });
    const open = await t.buildThread(alice, { text: '#隐私# 公开' });
    const topic = (await named('隐私'))!;
    await setGroupPermissions(t.current, t.admin, GroupId.GUEST, ['category1.viewThreads', 'thread.viewPosts']);
    try {
      expect((await threadsOf(topic.topicId)).pageData.map((d) => d.threadId)).toEqual([open.threadId]);
      expect((await threadsOf(topic.topicId, t.admin)).pageData.map((d) => d.threadId)).toEqual([
        open.threadId,
        secret.threadId,
      ]);
    } finally {
      await setGroupPermissions(t.current, t.admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
    }
  });
});
