import { Code, type Page, type ThreadItem, type UserSearchItem } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread, pause } from '../../test/forum-fixtures.js';
import { isIndexed } from './search.repository.js';
import { containsPattern, parseKeywords } from './search-terms.js';

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;
let alice: User;
const th = { sentence: 0, titled: 0, english: 0, percent: 0 };

const search = async (keyword: string, token?: string) => {
  const res = await t.get<Page<ThreadItem>>(
    `/api/v3/thread.list?perPage=50&filter[search]=${encodeURIComponent(keyword)}`,
    token,
  );
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data.pageData.map((d) => d.threadId);
};

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  alice = await buildUser(t);
  th.sentence = (
    await buildThread(t, alice.token, { title: '周末随笔', text: '我们今天在北京天安门广场上散步，天气很好。' })
  ).threadId;
  await pause();
  th.titled = (await buildThread(t, alice.token, { title: '天安门的历史', text: '一段很长的介绍。' })).threadId;
  await pause();
  th.english = (
    await buildThread(t, alice.token, { title: 'Kysely tips', text: 'Use **CamelCasePlugin** with SQLite.' })
  ).threadId;
  await pause();
  th.percent = (await buildThread(t, alice.token, { title: '折扣', text: '全场 100% 返现，仅限 a_b 会员' })).threadId;
});
afterAll(async () => {
  await t.close();
});

describe('thread search', () => {
  it('finds a Chinese word inside an unspaced Chinese sentence, title matches first', async () => {
    expect(await search('天安门')).toEqual([th.titled, th.sentence]);
    expect(await search('广场上散步')).toEqual([th.sentence]);
    expect(await search('天安门广场')).toEqual([th.sentence]);
  });

  it('finds one- and two-character words', async () => {
    expect(await search('北京')).toEqual([th.sentence]);
    expect(await search('京')).toEqual([th.sentence]);
    expect(await search('历史')).toEqual([th.titled]);
    expect(await search('随')).toEqual([th.sentence]);
  });

  it('matches English without regard to case, and every word of a query', async () => {
    expect(await search('camelcaseplugin')).toEqual([th.english]);
    expect(await search('KYSELY')).toEqual([th.english]);
    expect(await search('kysely sqlite')).toEqual([th.english]);
    expect(await search('kysely 北京')).toEqual([]);
    expect(await search('北京 天气')).toEqual([th.sentence]);
  });

  it('takes LIKE wildcards and FTS syntax in the input literally', async () => {
    expect(await search('%')).toEqual([th.percent]);
    expect(await search('_')).toEqual([th.percent]);
    expect(await search('a_b')).toEqual([th.percent]);
    expect(await search('a%b')).toEqual([]);
    expect(await search('"')).toEqual([]);
    expect(await search('NEAR(a b) OR *')).toEqual([]);
    expect(await search('没有这个词')).toEqual([]);
  });

  it('never matches Markdown or HTML markup, only the text', async () => {
    expect(await search('strong')).toEqual([]);
    expect(await search('**')).toEqual([]);
  });

  it('keeps the index in step on edit, delete and restore', async () => {
    const id = (await buildThread(t, alice.token, { title: '旧标题', text: '原来的内容提到了长城' })).threadId;
    expect(await search('长城')).toEqual([id]);
    await t.post(
      '/api/v3/thread.update',
      { threadId: id, title: '新标题', content: { text: '现在说的是故宫' } },
      alice.token,
    );
    expect(await search('长城')).toEqual([]);
    expect(await search('旧标题')).toEqual([]);
    expect(await search('故宫')).toEqual([id]);
    expect(await search('新标题')).toEqual([id]);

    const first = (await t.get<{ postId: number }>(`/api/v3/thread.detail?threadId=${id}`)).Data.postId;
    await t.post('/api/v3/posts.update', { id: first, content: '改成颐和园' }, alice.token);
    expect(await search('故宫')).toEqual([]);
    expect(await search('颐和园')).toEqual([id]);

    await t.post('/api/v3/thread.delete', { threadId: id }, alice.token);
    expect(await search('颐和园')).toEqual([]);
    expect(await isIndexed(t.server.database.db, t.server.database.dialect, id)).toBe(false);
    await t.post('/api/v3/threads/operate', { id, isDeleted: false }, admin);
    expect(await search('颐和园')).toEqual([id]);
  });

  it('indexes as the subscriber of thread events: a late event follows the thread as it now is', async () => {
    const id = (await buildThread(t, alice.token, { title: '迟到的事件', text: '提到了黄山' })).threadId;
    const { db, dialect } = t.server.database;
    expect(await isIndexed(db, dialect, id)).toBe(true);
    await t.post('/api/v3/thread.delete', { threadId: id }, alice.token);
    // thread.created heard again (a redelivery) after the delete: the deleted thread stays out of the index.
    const events = t.app.ctx.events;
    await db
      .transaction()
      .execute((trx) => events.emit(trx, 'thread.created', { threadId: id, userId: alice.id, categoryId: 1 }));
    await events.drain();
    expect(await isIndexed(db, dialect, id)).toBe(false);
    expect(await search('黄山')).toEqual([]);
  });

  it('never shows drafts of others, and ranks newer first among equals', async () => {
    const draft = (await buildThread(t, alice.token, { title: '草稿里的秘密', text: '秘密', draft: true })).threadId;
    expect(await search('秘密')).toEqual([]);
    expect(await search('秘密', alice.token)).toEqual([]);
    const older = (await buildThread(t, alice.token, { title: 'a', text: '同一个词语' })).threadId;
    await pause();
    const newer = (await buildThread(t, alice.token, { title: 'b', text: '同一个词语' })).threadId;
    expect(await search('词语')).toEqual([newer, older]);
    void draft;
  });

  it('pages through the ranked results: title hits first, then newest, each page whole rows', async () => {
    const first = (await buildThread(t, alice.token, { title: 'x', text: '分页的关键词一' })).threadId;
    await pause();
    const titled = (await buildThread(t, alice.token, { title: '关键词在标题', text: '正文' })).threadId;
    await pause();
    const last = (await buildThread(t, alice.token, { title: 'y', text: '分页的关键词二' })).threadId;
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await t.get<Page<ThreadItem>>(
        `/api/v3/thread.list?perPage=1&page=${page}&filter[search]=${encodeURIComponent('关键词')}`,
      );
      expect(res.Data.totalCount).toBe(3);
      pages.push(...res.Data.pageData);
    }
    expect(pages.map((p) => p.threadId)).toEqual([titled, last, first]);
    expect(pages[0]).toMatchObject({ title: '关键词在标题', user: { userId: alice.id } });
  });

  it('parses keywords and escapes patterns', () => {
    expect(parseKeywords('  北京   天安门 北京 ')).toEqual(['北京', '天安门']);
    expect(parseKeywords('a b c d e f g')).toHaveLength(5);
    expect(containsPattern('100%_\\')).toBe('%100\\%\\_\\\\%');
  });
});

describe('users.list', () => {
  it('finds users by username or nickname, exact match first, wildcards literal', async () => {
    const a = await buildUser(t, { nickname: '小明同学' });
    const b = await buildUser(t, { nickname: '小明' });
    const c = await buildUser(t, { nickname: 'x%y' });
    const find = async (q: string) =>
      (await t.get<Page<UserSearchItem>>(`/api/v3/users.list?filter[nickname]=${encodeURIComponent(q)}`)).Data;
    const res = await find('小明');
    expect(res.pageData.map((u) => u.userId)).toEqual([b.id, a.id]);
    expect(res.totalCount).toBe(2);
    expect(Object.keys(res.pageData[0]!).sort()).toEqual(
      ['avatar', 'fansCount', 'nickname', 'signature', 'threadCount', 'userId', 'username'].sort(),
    );
    expect((await find('%')).pageData.map((u) => u.userId)).toEqual([c.id]);
    expect((await find(a.username.toUpperCase())).pageData.map((u) => u.userId)).toEqual([a.id]);
    expect((await find('明')).totalCount).toBe(2);
    const all = await t.get<Page<UserSearchItem>>('/api/v3/users.list?perPage=2');
    expect(all.Data.totalCount).toBeGreaterThanOrEqual(4);
    expect((await t.get('/api/v3/users.list?perPage=500')).Code).toBe(Code.INVALID_PARAMETER);
  });
});
