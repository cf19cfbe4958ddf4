import {
  Code,
  type CategoryItem,
  type Page,
  type PostItem,
  type StopWordItem,
  type StopWordsBatchResult,
  type ThreadDetail,
  type ThreadItem,
} from '@luntan/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCategory, buildThread } from '../../test/factories.js';
import { buildUser, startTestServer } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

const batch = (words: unknown, overwrite?: boolean, token = t.admin) =>
  t.post<StopWordsBatchResult>(
    '/api/stop-words/batch.v2',
    { data: { type: 'stop-words', words, ...(overwrite === undefined ? {} : { overwrite }) } },
    token,
  );
const list = async (query = 'perPage=50') =>
  (await t.get<Page<StopWordItem>>(`/api/stop-words.v2?${query}`, t.admin)).Data;
const all = async () => {
  const out: StopWordItem[] = [];
  for (let page = 1; ; page += 1) {
    const p = await list(`perPage=50&page=${page}`);
    out.push(...p.pageData);
    if (page >= p.totalPage) return out;
  }
};
const removeAll = async () => {
  const ids = (await all()).map((w) => w.id);
  for (let i = 0; i < ids.length; i += 200) {
    const res = await t.call('DELETE', `/api/stop-words.v2?id=${ids.slice(i, i + 200).join(',')}`, { token: t.admin });
    expect(res.body.Code).toBe(0);
  }
};
const word = async (find: string) => (await all()).find((w) => w.find === find);

describe('stop-words/batch.v2', () => {
  beforeEach(removeAll);

  it('reads every line format of the family', async () => {
    const res = await batch([
      'plain',
      'swap=xx',
      'hold={MOD}',
      'stop={BANNED}',
      'Quiet={ignore}',
      'each={BANNED}|{MOD}|{IGNORE}|{REPLACE}|abc',
      'four={MOD}|{BANNED}|{IGNORE}|{MOD}',
      'two=**|{MOD}',
      '   ',
    ]);
    expect(res).toMatchObject({ Code: 0, Data: { created: 8, updated: 0, skipped: 0 } });
    const pick = ({ find, replacement, ugc, username, signature, dialog, nickname }: StopWordItem) => ({
      find,
      replacement,
      actions: [ugc, username, signature, dialog, nickname].join('|'),
    });
    expect((await word('plain'))!).toMatchObject({ replacement: '**' });
    expect(pick((await word('plain'))!).actions).toBe('{REPLACE}|{REPLACE}|{REPLACE}|{REPLACE}|{REPLACE}');
    expect(pick((await word('swap'))!)).toEqual({
      find: 'swap',
      replacement: 'xx',
      actions: '{REPLACE}|{REPLACE}|{REPLACE}|{REPLACE}|{REPLACE}',
    });
    expect(pick((await word('hold'))!).actions).toBe('{MOD}|{MOD}|{MOD}|{MOD}|{MOD}');
    expect(pick((await word('stop'))!).actions).toBe('{BANNED}|{BANNED}|{BANNED}|{BANNED}|{BANNED}');
    expect(pick((await word('Quiet'))!).actions).toBe('{IGNORE}|{IGNORE}|{IGNORE}|{IGNORE}|{IGNORE}');
    expect(pick((await word('each'))!)).toEqual({
      find: 'each',
      replacement: 'abc',
      actions: '{BANNED}|{MOD}|{IGNORE}|{REPLACE}|{REPLACE}',
    });
    // Without a fifth part the nickname follows the username.
    expect(pick((await word('four'))!).actions).toBe('{MOD}|{BANNED}|{IGNORE}|{MOD}|{BANNED}');
    expect(pick((await word('two'))!).actions).toBe('{REPLACE}|{MOD}|{IGNORE}|{IGNORE}|{MOD}');
  });

  it('skips existing words without overwrite and updates them with it, whatever their case', async () => {
    expect((await batch(['alpha={BANNED}', 'beta={MOD}'])).Data).toEqual({ created: 2, updated: 0, skipped: 0 });
    expect((await batch(['ALPHA=aa', 'beta=bb', 'gamma'])).Data).toEqual({ created: 1, updated: 0, skipped: 2 });
    expect((await word('alpha'))!.ugc).toBe('{BANNED}');
    expect((await batch(['ALPHA=aa', 'gamma={MOD}', 'delta'], true)).Data).toEqual({
      created: 1,
      updated: 2,
      skipped: 0,
    });
    expect(await word('alpha')).toBeUndefined();
    expect(await word('ALPHA')).toMatchObject({ ugc: '{REPLACE}', replacement: 'aa' });
    expect((await word('gamma'))!.ugc).toBe('{MOD}');
    expect((await word('beta'))!.ugc).toBe('{MOD}');
    // A word twice in one batch counts once; the later line is skipped.
    expect((await batch(['epsilon={BANNED}', 'Epsilon={MOD}'])).Data).toEqual({ created: 1, updated: 0, skipped: 1 });
    expect((await word('epsilon'))!.ugc).toBe('{BANNED}');
  });

  it.each([
    ['an unknown action', ['ok1', 'bad={DROP}'], 'data.words.1'],
    ['six parts', ['x=a|b|c|d|e|f'], 'data.words.0'],
    ['nothing after =', ['x='], 'data.words.0'],
    ['an empty word', ['=x'], 'data.words.0'],
    ['only wildcards', ['{3}'], 'data.words.0'],
    ['two replacements', ['x=a|b'], 'data.words.0'],
    ['a word over 100 characters', ['字'.repeat(101)], 'data.words.0'],
    ['a control character', ['a\u0007b'], 'data.words.0'],
    ['only blank lines', ['', '  '], 'data.words'],
    ['no words', [], 'data.words'],
    ['a number', [12], 'data.words.0'],
  ])('refuses %s with -4001, naming the line, and writes nothing', async (_n, words, field) => {
    await batch(['keep={BANNED}']);
    const res = await batch(words);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
    expect((await all()).map((w) => w.find)).toEqual(['keep']);
  });

  it('refuses a wrong type, a missing data and more than 10,000 words', async () => {
    const wrongType = await t.post('/api/stop-words/batch.v2', { data: { type: 'words', words: ['a'] } }, t.admin);
    expect(wrongType.Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.post('/api/stop-words/batch.v2', { type: 'stop-words', words: ['a'] }, t.admin)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    const many = Array.from({ length: 10_001 }, (_, i) => `w${i}`);
    expect((await batch(many)).Code).toBe(Code.INVALID_PARAMETER);
    expect(await all()).toEqual([]);
  });

  it('imports 10,000 words in one batch', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `词${i}={BANNED}`);
    expect((await batch(many)).Data).toEqual({ created: 10_000, updated: 0, skipped: 0 });
    expect((await list('perPage=1')).totalCount).toBe(10_000);
    expect((await batch(many, true)).Data).toEqual({ created: 0, updated: 10_000, skipped: 0 });
  });
});

describe('stop-words.v2 list, delete and export', () => {
  beforeEach(removeAll);

  it('lists newest first with page, perPage and filter (a part of the word, any case)', async () => {
    await batch(['Apple', 'pineapple', 'banana', '苹果手机']);
    const page = await t.get<Page<StopWordItem>>('/api/stop-words.v2?page=1&perPage=2', t.admin);
    expect(page.Data).toMatchObject({ currentPage: 1, perPage: 2, totalCount: 4, totalPage: 2 });
    expect(page.Data.pageData.map((w) => w.find)).toEqual(['苹果手机', 'banana']);
    expect((await list('filter=APPLE')).pageData.map((w) => w.find)).toEqual(['pineapple', 'Apple']);
    expect((await list(`filter=${encodeURIComponent('果')}`)).pageData.map((w) => w.find)).toEqual(['苹果手机']);
    expect((await list('filter=%25')).totalCount).toBe(0);
    for (const bad of ['perPage=51', 'page=0', 'page=x']) {
      expect((await t.get(`/api/stop-words.v2?${bad}`, t.admin)).Code).toBe(Code.INVALID_PARAMETER);
    }
  });

  it('deletes by id in the query or the body, several separated by commas', async () => {
    await batch(['d1', 'd2', 'd3', 'd4']);
    const ids = Object.fromEntries((await all()).map((w) => [w.find, w.id]));
    const one = await t.call<{ deleted: number }>('DELETE', `/api/stop-words.v2?id=${ids.d1}`, { token: t.admin });
    expect(one.body).toMatchObject({ Code: 0, Data: { deleted: 1 } });
    const two = await t.call<{ deleted: number }>('DELETE', '/api/stop-words.v2', {
      token: t.admin,
      body: { id: `${ids.d2},${ids.d3}` },
    });
    expect(two.body).toMatchObject({ Code: 0, Data: { deleted: 2 } });
    expect((await all()).map((w) => w.find)).toEqual(['d4']);
    expect((await t.call('DELETE', `/api/stop-words.v2?id=${ids.d1}`, { token: t.admin })).body.Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    for (const url of [
      '/api/stop-words.v2',
      '/api/stop-words.v2?id=a',
      '/api/stop-words.v2?id=1;2',
      '/api/stop-words.v2?id=',
    ]) {
      expect((await t.call('DELETE', url, { token: t.admin })).body.Code).toBe(Code.INVALID_PARAMETER);
    }
    expect((await all()).map((w) => w.find)).toEqual(['d4']);
  });

  it('exports lines that import back into the same list', async () => {
    await batch(['one', 'two=2', 'three={MOD}', 'four={BANNED}|{MOD}|{IGNORE}|{REPLACE}|x', '发{2}票={BANNED}']);
    const before = (await all()).map(({ id: _i, createdAt: _c, updatedAt: _u, ...rest }) => rest);
    const exported = await t.get<{ words: string[]; totalCount: number }>('/api/stop-words/export.v2', t.admin);
    expect(exported.Data.totalCount).toBe(5);
    expect(exported.Data.words).toContain('four={BANNED}|{MOD}|{IGNORE}|x|x');
    await removeAll();
    expect((await batch(exported.Data.words)).Data.created).toBe(5);
    const after = (await all()).map(({ id: _i, createdAt: _c, updatedAt: _u, ...rest }) => rest);
    expect(after).toEqual(before);
  });
});

describe('stop words enforced where text enters', () => {
  let author: Awaited<ReturnType<typeof buildUser>>;
  let category: number;
  beforeAll(async () => {
    await removeAll();
    await batch([
      '赌博={BANNED}',
      'Casino={BANNED}',
      '发{2}票={BANNED}',
      '傻瓜=**',
      'darn=d*rn',
      '代购={MOD}',
      'promo={MOD}',
      'badname={IGNORE}|{BANNED}|{IGNORE}|{IGNORE}|{BANNED}',
      'modnick={IGNORE}|{IGNORE}|{IGNORE}|{IGNORE}|{MOD}',
      'swapnick={IGNORE}|{REPLACE}|{IGNORE}|{IGNORE}|{REPLACE}',
    ]);
    author = await buildUser(t);
    category = await buildCategory(t, t.admin);
  });

  const create = (title: string, text: string, token = author.token) =>
    t.post<ThreadDetail>('/api/v3/thread.create', { categoryId: category, title, content: { text } }, token);
  const reply = (threadId: number, content: string, token = author.token) =>
    t.post<PostItem>('/api/v3/posts.create', { id: threadId, content }, token);
  const threadCount = async () =>
    (await t.get<CategoryItem[]>('/api/v3/categories', t.admin)).Data.find((c) => c.categoryId === category)!
      .threadCount;

  it.each([
    ['a Chinese word inside a sentence', '标题', '我们这里不谈赌博的事', '赌博'],
    ['a Latin word in another case', 'Big CASINO night', 'body', 'Casino'],
    ['a wildcard word', '标题', '代开发 票，联系我', '发{2}票'],
  ])('refuses %s in a thread with -4006 naming the word', async (_n, title, text, banned) => {
    const before = await threadCount();
    const res = await create(title, text);
    expect(res.Code).toBe(Code.CONTENT_BANNED);
    expect(res.Data).toMatchObject({ word: banned });
    expect(res.Message).toContain(banned);
    expect(await threadCount()).toBe(before);
  });

  it('refuses a banned word in a reply, a comment and an edit', async () => {
    const thread = await buildThread(t, author.token, { categoryId: category });
    const banned = await reply(thread.threadId, '来赌博吧');
    expect(banned).toMatchObject({ Code: Code.CONTENT_BANNED, Data: { field: 'content', word: '赌博' } });
    const ok = await reply(thread.threadId, 'fine');
    const comment = await t.post(
      '/api/v3/posts.create',
      { id: thread.threadId, replyId: ok.Data.id, content: 'casino!' },
      author.token,
    );
    expect(comment.Code).toBe(Code.CONTENT_BANNED);
    const edit = await t.post('/api/v3/posts.update', { id: ok.Data.id, content: '赌博' }, author.token);
    expect(edit.Code).toBe(Code.CONTENT_BANNED);
    const editThread = await t.post(
      '/api/v3/thread.update',
      { threadId: thread.threadId, title: 'casino' },
      author.token,
    );
    expect(editThread.Code).toBe(Code.CONTENT_BANNED);
    const detail = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`, author.token);
    expect(detail.Data.title).toBe(thread.title);
    expect(detail.Data.postCount).toBe(1);
  });

  it('replaces {REPLACE} words in titles, bodies and replies', async () => {
    const res = await create('你个傻瓜', 'What a DARN day, 傻瓜');
    expect(res.Code).toBe(0);
    expect(res.Data.title).toBe('你个**');
    // Markdown takes the replacements escaped, so that they show as written (see the next test).
    expect(res.Data.content.text).toBe('What a d\\*rn day, \\*\\*');
    const r = await reply(res.Data.threadId, 'darn darn');
    expect(r.Data.content.text).toBe('d\\*rn d\\*rn');
  });

  it('inserts replacements into Markdown as literal text: threads, replies, comments and edits show them as written', async () => {
    expect((await batch(['坏词', 'spamword'])).Code).toBe(0);
    const literal = '<p>这里有**和**。</p>';

    const thread = await create('坏词的标题', '这里有坏词和spamword。');
    expect(thread.Code).toBe(0);
    // A title is plain text: the replacement goes in as it is.
    expect(thread.Data.title).toBe('**的标题');
    expect(thread.Data.content.html).toContain(literal);
    expect(thread.Data.content.html).not.toMatch(/<(strong|em)>/);
    const listed = await t.get<Page<ThreadItem>>(`/api/v3/thread.list?filter[categoryids][]=${category}`, author.token);
    expect(listed.Data.pageData.find((d) => d.threadId === thread.Data.threadId)?.summary).toBe('这里有**和**。');

    const r = await reply(thread.Data.threadId, '这里有坏词和spamword。');
    expect(r.Data.content.html).toContain(literal);
    const comment = await t.post<PostItem>(
      '/api/v3/posts.create',
      { id: thread.Data.threadId, replyId: r.Data.id, content: '`坏词` 和 spamword' },
      author.token,
    );
    // Inside code a backslash would show: there the replacement goes in as it is.
    expect(comment.Data.content.html).toContain('<p><code>**</code> 和 **</p>');

    const edited = await t.post<PostItem>(
      '/api/v3/posts.update',
      { id: r.Data.id, content: '**粗体**和坏词' },
      author.token,
    );
    expect(edited.Data.content.html).toContain('<p><strong>粗体</strong>和**</p>');
    const editedThread = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: thread.Data.threadId, content: { text: 'spamword和spamword' } },
      author.token,
    );
    expect(editedThread.Data.content.html).toContain('<p>**和**</p>');
  });

  it('holds a thread with a {MOD} word: its author and administrators see it, marked; lists and counts do not', async () => {
    const other = await buildUser(t);
    const before = await threadCount();
    const res = await create('Promo inside', '正常内容');
    expect(res.Code).toBe(0);
    expect(res.Data.isApproved).toBe(false);
    const id = res.Data.threadId;
    const listed = async (token?: string) =>
      (
        await t.get<Page<ThreadItem>>(`/api/v3/thread.list?filter[categoryids][]=${category}&perPage=50`, token)
      ).Data.pageData.map((x) => x.threadId);
    expect(await listed()).not.toContain(id);
    expect(await listed(other.token)).not.toContain(id);
    expect(await listed(t.admin)).not.toContain(id);
    expect(await threadCount()).toBe(before);
    expect((await t.get(`/api/v3/thread.detail?threadId=${id}`)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get(`/api/v3/thread.detail?threadId=${id}`, other.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${id}`, author.token)).Data.isApproved).toBe(
      false,
    );
    expect((await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${id}`, t.admin)).Data.isApproved).toBe(false);
    const own = await t.get<Page<ThreadItem>>(
      `/api/v3/thread.list?filter[complex]=5&filter[toUserId]=${author.id}`,
      author.token,
    );
    expect(own.Data.pageData.find((x) => x.threadId === id)?.isApproved).toBe(false);
  });

  it('holds a reply with a {MOD} word out of the lists and counts', async () => {
    const other = await buildUser(t);
    const thread = await buildThread(t, author.token, { categoryId: category });
    const held = await reply(thread.threadId, '有人代购吗');
    expect(held.Code).toBe(0);
    expect(held.Data.isApproved).toBe(false);
    const replies = async (token?: string) =>
      (await t.get<Page<PostItem>>(`/api/v3/posts.list?threadId=${thread.threadId}`, token)).Data;
    expect((await replies(other.token)).pageData).toEqual([]);
    expect((await replies(other.token)).totalCount).toBe(0);
    expect((await replies(author.token)).pageData.map((p) => [p.id, p.isApproved])).toEqual([[held.Data.id, false]]);
    const detail = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`, other.token);
    expect(detail.Data.postCount).toBe(0);
  });

  it('sends an approved thread back to review when an edit brings a {MOD} word', async () => {
    const thread = await buildThread(t, author.token, { categoryId: category });
    const before = await threadCount();
    const res = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: thread.threadId, content: { text: 'promo' } },
      author.token,
    );
    expect(res.Data.isApproved).toBe(false);
    expect(await threadCount()).toBe(before - 1);
  });

  it("never holds an administrator's own content", async () => {
    const res = await create('promo by admin', 'body', t.admin);
    expect(res.Data.isApproved).toBe(true);
  });

  it.each([
    ['a banned username', { username: 'xbadnamex' }, 'username'],
    ['a banned word in a username that would be the nickname', { username: 'my赌博' }, 'username'],
    ['a {MOD} nickname', { username: 'okname1', nickname: 'a modnick' }, 'nickname'],
    ['a username a {REPLACE} word would change', { username: 'swapnick1' }, 'username'],
    ['a banned nickname', { username: 'okname2', nickname: 'BadName' }, 'nickname'],
  ])('refuses %s at registration with -4006', async (_n, names, field) => {
    const res = await t.post('/api/v3/users/username.register', { ...names, password: 'secret1' });
    expect(res.Code).toBe(Code.CONTENT_BANNED);
    expect(res.Data).toMatchObject({ field });
    const search = await t.get<Page<{ username: string }>>(
      `/api/backAdmin/users?filter[username]=${encodeURIComponent(names.username)}`,
      t.admin,
    );
    expect(search.Data.totalCount).toBe(0);
  });

  it('replaces a {REPLACE} word in a nickname at registration', async () => {
    const res = await t.post<{ userId: number }>('/api/v3/users/username.register', {
      username: 'okname3',
      nickname: 'the swapnick',
      password: 'secret1',
    });
    expect(res.Code).toBe(0);
    const u = await t.get<{ nickname: string }>(`/api/backAdmin/user?userId=${res.Data.userId}`, t.admin);
    expect(u.Data.nickname).toBe('the **');
  });

  it('takes a change of the list into account on the next request, in another process too', async () => {
    const second = await startTestServer({ storage: t.storage });
    try {
      const thread = await buildThread(t, author.token, { categoryId: category });
      expect((await reply(thread.threadId, 'newword here')).Code).toBe(0);
      // Read once in the second process, so that it holds a matcher to invalidate.
      expect(
        (await second.post('/api/v3/posts.create', { id: thread.threadId, content: 'newword' }, author.token)).Code,
      ).toBe(0);
      await batch(['newword={BANNED}']);
      expect((await reply(thread.threadId, 'newword here')).Code).toBe(Code.CONTENT_BANNED);
      expect(
        (await second.post('/api/v3/posts.create', { id: thread.threadId, content: 'NEWWORD' }, author.token)).Code,
      ).toBe(Code.CONTENT_BANNED);
      const id = (await word('newword'))!.id;
      await second.call('DELETE', `/api/stop-words.v2?id=${id}`, { token: t.admin });
      expect((await reply(thread.threadId, 'newword again')).Code).toBe(0);
    } finally {
      await second.close({ keep: true });
    }
  });
});

describe('guests and members are refused and nothing changes', () => {
  it.each([
    ['GET', '/api/stop-words.v2', undefined],
    ['GET', '/api/stop-words/export.v2', undefined],
    ['POST', '/api/stop-words/batch.v2', { data: { type: 'stop-words', words: ['intruder={BANNED}'] } }],
    ['DELETE', '/api/stop-words.v2?id=ALL', undefined],
  ])('%s %s', async (method, url, body) => {
    await batch(['survivor={BANNED}']);
    const member = await buildUser(t);
    const target = url.replace('ALL', (await all()).map((w) => w.id).join(','));
    const before = await all();
    expect((await t.call(method as 'GET', target, { body })).body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.call(method as 'GET', target, { body, token: member.token })).body.Code).toBe(Code.UNAUTHORIZED);
    expect(await all()).toEqual(before);
  });
});
