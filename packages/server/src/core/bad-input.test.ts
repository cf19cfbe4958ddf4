import { Code } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';
import { buildReply, buildThread } from '../test/factories.js';

const t = useTestServer();
let member: string;
let threadId: number;
let postId: number;

beforeAll(async () => {
  member = (await buildUser(t)).token;
  const th = await buildThread(t, member);
  threadId = th.threadId;
  postId = (await buildReply(t, member, threadId)).id;
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
      const token = url.includes('backAdmin') ? t.admin : member;
      const res = await t.call('POST', url, {
        token,
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, url).toBeLessThan(500);
      expect(res.body.Code, `${url} ${JSON.stringify(body)}`).not.toBe(Code.INTERNAL_ERROR);
    }
    // NUL is refused (-4001), so the thread with NUL in its text was not created.
    const list = await t.get<{ pageData: { title: string }[] }>('/api/v3/thread.list?filter[search]=nul');
    expect(list.Data.pageData.map((d) => d.title)).not.toContain('nul');
  });
});

/** Every API route with its methods, from the OpenAPI document (path parameters filled with `fill`). */
async function everyRoute(fill: string): Promise<{ method: 'GET' | 'POST' | 'DELETE'; url: string }[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
  const routes: { method: 'GET' | 'POST' | 'DELETE'; url: string }[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    if (!p.startsWith('/api/') || p.startsWith('/api/docs')) continue;
    for (const m of Object.keys(methods)) {
      const method = m.toUpperCase();
      if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') continue;
      routes.push({ method, url: p.replace(/\{[^}]+\}/g, fill) });
    }
  }
  return routes;
}

/** Rows in every table: a refused call must leave every one as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const db = t.server.database.db;
  const counts: Record<string, number> = {};
  for (const table of await db.introspection.getTables()) {
    const row = await db
      .selectFrom(table.name as never)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table.name] = Number(row.n);
  }
  return counts;
}

describe('every route', () => {
  it('answers a NUL character anywhere in its input with -4001 and stores nothing', async () => {
    const routes = await everyRoute('x%00y');
    expect(routes.length).toBeGreaterThan(60);
    const before = await rowCounts();
    for (const { method, url } of routes) {
      const hasParam = url.includes('%00');
      const withQuery = `${url}${url.includes('?') ? '&' : '?'}keyword=a%00b`;
      const requests =
        method === 'GET' || hasParam
          ? [{ url: withQuery }]
          : [
              { url, body: { username: 'a\u0000b', password: 'password-123', data: [{ key: 'k\u0000', value: 'v' }] } },
              { url, body: { nested: { deeper: ['ok', 'x\u0000'] } } },
              { url, body: { ['key\u0000']: 1 } },
            ];
      for (const r of requests) {
        const res = await t.call(method, r.url, {
          token: t.admin,
          ...('body' in r ? { body: JSON.stringify(r.body), headers: { 'content-type': 'application/json' } } : {}),
        });
        const label = `${method} ${r.url} ${'body' in r ? JSON.stringify(r.body) : ''}`;
        expect(res.status, label).toBeLessThan(500);
        expect(res.body.Code, label).toBe(Code.INVALID_PARAMETER);
      }
    }
    // The two calls the attack report named, as a guest and as a member.
    for (const token of [undefined, member]) {
      const login = await t.call('POST', '/api/v3/users/username.login', {
        token,
        body: { username: 'a\u0000b', password: 'whatever-123' },
      });
      expect(login.body.Code).toBe(Code.INVALID_PARAMETER);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('answers a cut-off or malformed multipart body with -4001, never a 5xx', async () => {
    // Logging out takes no body and would end the administrator's session used here.
    const routes = (await everyRoute('1')).filter((r) => r.method === 'POST' && !r.url.endsWith('/logout'));
    const uploads = ['/api/v3/attachments', '/api/settings/logo.v2'];
    expect(routes.map((r) => r.url)).toEqual(expect.arrayContaining(uploads));
    const boundary = 'luntanBoundary';
    const head = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const bodies = [
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nlogo\r\n${head('file')}\x89PNG\r\n\x1a\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nlogo\r\n--${boundary}\r\nContent-Disp`,
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nlo`,
      `--${boundary}\r\n${'X'.repeat(100)}\r\n\r\n`,
      `--${boundary}`,
      'not a form at all',
    ];
    const before = await rowCounts();
    for (const { url } of routes) {
      for (const payload of bodies) {
        const res = await t.call('POST', url, {
          token: t.admin,
          body: payload,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        });
        const label = `${url} ${JSON.stringify(payload.slice(-20))}`;
        expect(res.status, label).toBeLessThan(500);
        expect(res.body.Code, label).not.toBe(Code.INTERNAL_ERROR);
        // The upload routes read the form; a route that takes no body may answer as usual.
        if (uploads.includes(url)) expect(res.body.Code, label).toBe(Code.INVALID_PARAMETER);
      }
    }
    expect(await rowCounts()).toEqual(before);
  });
});
