import { Code } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildReply, buildThread } from '../../test/forum-fixtures.js';

let t: TestServer;
let admin: string;
let member: string;
let threadId: number;
let postId: number;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  member = (await buildUser(t)).token;
  const th = await buildThread(t, member);
  threadId = th.threadId;
  postId = (await buildReply(t, member, threadId)).id;
});
afterAll(async () => {
  await t.close();
});

const NASTY = [
  '\u0000',
  'a\u0000b\u0000c',
  '"',
  '"""',
  "'; drop table threads; --",
  '%_\\',
  'NEAR(',
  '* OR *',
  '🙂🙂🙂',
  'x'.repeat(100),
];

/** Nothing a client sends may make the server fail: every answer is a business code, never -5002. */
describe('bad input never breaks the server', () => {
  it('GET calls with odd query strings', async () => {
    const urls = [
      ...NASTY.map((k) => `/api/v3/thread.list?filter[search]=${encodeURIComponent(k)}`),
      ...NASTY.map((k) => `/api/v3/users.list?filter[nickname]=${encodeURIComponent(k)}`),
      '/api/v3/thread.list?filter[search][a]=1',
      '/api/v3/thread.list?filter[categoryids][a]=1',
      `/api/v3/thread.list?${Array.from({ length: 120 }, (_, i) => `filter[categoryids][${i}]=1`).join('&')}`,
      '/api/v3/thread.list?page=99999999999999999999',
      '/api/v3/thread.list?page=100000&perPage=50',
      '/api/v3/thread.list?perPage=1.5',
      '/api/v3/thread.list?filter[toUserId]=-1',
      '/api/v3/thread.list?filter[sort][]=1',
      '/api/v3/thread.detail?threadId[]=1',
      '/api/v3/thread.detail?threadId=1e3',
      '/api/v3/thread.detail?threadId=0x10',
      '/api/v3/posts.list?threadId=%00',
      `/api/v3/posts.reply?postId=${postId}&page=-1`,
      '/api/v3/thread.likedusers?threadId=1&postId=abc',
      '/api/v3/attachments/%00.jpg',
      '/api/v3/attachments/AAAAAAAAAAAAAAAAAAAAAA.jpg?width=0',
    ];
    for (const url of urls) {
      const res = await t.call('GET', url, { token: member });
      expect(res.status, url).toBeLessThan(500);
      expect(res.body.Code, url).not.toBe(Code.INTERNAL_ERROR);
    }
  });

  it('POST calls with odd bodies', async () => {
    const calls: [string, unknown][] = [
      ['/api/v3/thread.create', { categoryId: 1, title: 'nul', content: { text: 'a\u0000b' } }],
      ['/api/v3/thread.create', { categoryId: 1, title: 'a\u0000b', content: { text: 'x' } }],
      ['/api/v3/thread.create', { categoryId: 1.5, title: 'x', content: { text: 'x' } }],
      ['/api/v3/thread.create', { categoryId: 1, title: ['x'], content: 'x' }],
      ['/api/v3/thread.create', { categoryId: 1, title: 'x', content: { text: 'x' }, draft: null }],
      ['/api/v3/thread.create', []],
      ['/api/v3/thread.create', 'null'],
      ['/api/v3/thread.update', { threadId, content: { text: '\u0000' } }],
      ['/api/v3/threads/operate', { id: threadId, categoriesId: 2 ** 40 }],
      ['/api/v3/threads/operate', { id: -1, isSticky: true }],
      ['/api/v3/posts.create', { id: threadId, content: '\u0000x' }],
      ['/api/v3/posts.create', { id: threadId, content: 'x', replyId: 2 ** 31 - 1 }],
      ['/api/v3/posts.create', { id: threadId, content: { text: 5 } }],
      ['/api/v3/posts.update', { id: postId, isLiked: 'true' }],
      ['/api/v3/posts.update', { id: postId, content: '' }],
      ['/api/v3/view.count', { threadId: '1' }],
      ['/api/backAdmin/categories.create', { name: 'a\u0000' }],
    ];
    for (const [url, body] of calls) {
      const token = url.includes('backAdmin') ? admin : member;
      const res = await t.call('POST', url, {
        token,
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, url).toBeLessThan(500);
      expect(res.body.Code, `${url} ${JSON.stringify(body)}`).not.toBe(Code.INTERNAL_ERROR);
    }
    // NUL is dropped from text, so the thread was created and reads back.
    const list = await t.get<{ pageData: { title: string }[] }>('/api/v3/thread.list?filter[search]=nul');
    expect(list.Data.pageData.map((d) => d.title)).toContain('nul');
  });
});
