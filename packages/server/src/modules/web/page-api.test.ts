import { GroupId, type Envelope } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { renderAsHeader, type RenderAs } from './group-render.js';
import { pageApi } from './page-api.js';

/**
 * A page render's in-process reads (page-api.ts) answer what the HTTP routes answer, for each kind of viewer: the
 * same envelope but for RequestId and RequestTime, without going through app.inject.
 */
const t = useTestServer();

/** Who reads: the headers of the page request, or the groups a member's page is rendered for. */
interface Reader {
  name: string;
  headers: Record<string, string>;
  renderAs?: RenderAs;
}

let readers: Reader[];
let paths: string[];
let paidId: number;
let anonymousId: number;

/** The page request as web.routes.ts hands it over: only its headers and parsed cookies are read. */
function pageRequest(headers: Record<string, string>): FastifyRequest {
  const cookies: Record<string, string> = {};
  for (const part of (headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key) cookies[key] = decodeURIComponent(rest.join('='));
  }
  return { headers, cookies } as unknown as FastifyRequest;
}

/** What the HTTP route answers the reader, without the per-request tail. */
async function overHttp(reader: Reader, path: string) {
  const headers = reader.renderAs ? { ...reader.headers, ...renderAsHeader(reader.renderAs) } : reader.headers;
  const res = await t.app.inject({ url: path, headers });
  return stable(res.json<Envelope>());
}

function stable({ RequestId, RequestTime, ...rest }: Envelope) {
  expect(RequestId).toEqual(expect.any(String));
  expect(Number.isNaN(Date.parse(RequestTime))).toBe(false);
  return rest;
}

beforeAll(async () => {
  const member = await t.buildMember();
  const author = await t.buildMember({ nickname: 'Page Author' });
  const english = await t.buildMember();
  const named = await t.buildThread(author, { title: 'A plain thread #pagetopic#' });
  for (let i = 0; i < 4; i += 1) await t.buildReply(i % 2 ? member : author, named.threadId, { text: `reply ${i}` });
  const paid = await t.post<{ threadId: number }>(
    '/api/v3/thread.create',
    {
      categoryId: 1,
      title: 'A paid thread',
      content: { text: 'Free words first.\n\nThen the paid part with secretword.' },
      price: '3.00',
      freeWords: 0.3,
    },
    author.token,
  );
  expect(paid.Code).toBe(0);
  paidId = paid.Data.threadId;
  const anonymous = await t.post<{ threadId: number }>(
    '/api/v3/thread.create',
    { categoryId: 1, title: 'An anonymous thread', content: { text: 'who wrote this' }, anonymous: 1 },
    author.token,
  );
  expect(anonymous.Code).toBe(0);
  anonymousId = anonymous.Data.threadId;
  await t.buildReply(author, anonymous.Data.threadId, { text: 'the author again' });
  const draft = await t.buildThread(author, { title: 'A draft', draft: true });

  readers = [
    { name: 'guest', headers: {} },
    { name: 'guest in English', headers: { cookie: 'locale=en' } },
    { name: 'member', headers: { authorization: `Bearer ${member.token}` } },
    { name: 'author (cookie session)', headers: { cookie: `access_token=${author.token}` } },
    { name: 'member in English', headers: { cookie: `locale=en; access_token=${english.token}` } },
    { name: 'administrator', headers: { authorization: `Bearer ${t.admin}` } },
    { name: 'members’ groups', headers: {}, renderAs: { groupIds: [GroupId.MEMBER] } },
    {
      name: 'administrators’ groups',
      headers: { cookie: 'locale=en' },
      renderAs: { groupIds: [GroupId.ADMINISTRATOR] },
    },
  ];
  const thread = (id: number) => [
    `/api/v3/thread.detail?threadId=${id}`,
    `/api/v3/posts.list?threadId=${id}&page=1&perPage=20`,
  ];
  paths = [
    '/api/v3/forum',
    '/api/v3/unreadnotification',
    '/api/v3/plugin/list?platform=pc',
    '/api/v3/categories',
    '/api/v3/thread.list?page=1&perPage=20&filter[sort]=2',
    '/api/v3/thread.list?page=1&perPage=5&filter[sort]=3',
    '/api/v3/thread.list?page=1&perPage=20&filter[sort]=1&filter[categoryids][0]=1',
    '/api/v3/thread.list?page=1&perPage=20&filter[sort]=2&filter[search]=thread',
    '/api/v3/topics.list?page=1&perPage=5&filter[hot]=1',
    `/api/v3/users.list?page=1&perPage=20&filter[nickname]=page`,
    `/api/v3/user?userId=${author.id}`,
    `/api/v3/thread.list?page=1&perPage=10&filter[complex]=5&filter[toUserId]=${author.id}`,
    '/api/v3/user?userId=999999',
    ...thread(named.threadId),
    ...thread(paid.Data.threadId),
    ...thread(anonymous.Data.threadId),
    // Another's draft: not found but for its author; a thread that never was: not found.
    ...thread(draft.threadId),
    ...thread(999_999),
  ];
});

describe('a page render’s in-process API', () => {
  it('answers every page read as the HTTP route does, for every kind of viewer, without app.inject', async () => {
    const inject = vi.spyOn(t.app, 'inject');
    try {
      for (const reader of readers) {
        const api = pageApi(t.app, pageRequest(reader.headers), reader.renderAs ?? null);
        for (const path of paths) {
          const expected = await overHttp(reader, path);
          inject.mockClear();
          const answer = await api('GET', path);
          const where = `${reader.name}: ${path}`;
          // A guest's unread counters are the login guard's refusal, which app.inject writes.
          const injected = path.includes('unreadnotification') && !/token|Bearer/.test(JSON.stringify(reader.headers));
          expect(inject.mock.calls.length, where).toBe(injected ? 1 : 0);
          expect(stable(answer), where).toEqual(expected);
        }
      }
    } finally {
      inject.mockRestore();
    }
  });

  it('shows what each viewer may see: the paid part, the anonymous author, not-found and its language', async () => {
    const guest = pageApi(t.app, pageRequest({}), null);
    const english = pageApi(t.app, pageRequest({ cookie: 'locale=en' }), null);
    const admin = pageApi(t.app, pageRequest({ authorization: `Bearer ${t.admin}` }), null);
    const paidPath = `/api/v3/thread.detail?threadId=${paidId}`;
    const paid = await guest<{ canViewFull: boolean; content: { text: string } }>('GET', paidPath);
    expect(paid.Data.canViewFull).toBe(false);
    expect(paid.Data.content.text).not.toContain('secretword');
    const full = await admin<{ canViewFull: boolean; content: { text: string } }>('GET', paidPath);
    expect(full.Data.content.text).toContain('secretword');
    const anonymousPath = `/api/v3/thread.detail?threadId=${anonymousId}`;
    const hidden = await guest<{ isAnonymous: boolean; user: { nickname: string } }>('GET', anonymousPath);
    expect(hidden.Data.isAnonymous).toBe(true);
    expect(JSON.stringify(hidden.Data)).not.toContain('Page Author');
    const shown = await admin<{ user: { nickname: string } }>('GET', anonymousPath);
    expect(shown.Data.user.nickname).toBe('Page Author');
    const missing = '/api/v3/thread.detail?threadId=999999';
    const [zh, en] = [await guest('GET', missing), await english('GET', missing)];
    expect(zh.Code).not.toBe(0);
    expect(en.Code).toBe(zh.Code);
    expect(en.Message).not.toBe(zh.Message);
  });

  it('leaves writes, unlisted reads and refused queries to app.inject, with the same answers', async () => {
    const member = await t.buildMember();
    const headers = { authorization: `Bearer ${member.token}` };
    const api = pageApi(t.app, pageRequest(headers), null);
    for (const path of ['/api/v3/thread.detail?threadId=abc', '/api/v3/plugin/list?platform=tv', '/api/siteinfo.v2']) {
      expect(stable(await api('GET', path)), path).toEqual(await overHttp({ name: 'member', headers }, path));
    }
    const posted = await api<{ threadId: number }>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: 'Posted through the page API',
      content: { text: 'body' },
    });
    expect(posted.Code).toBe(0);
    expect((await api('GET', `/api/v3/thread.detail?threadId=${posted.Data.threadId}`)).Code).toBe(0);
  });

  it('reads a thread once for a page: its replies are of the thread its detail showed', async () => {
    const author = await t.buildMember();
    const { threadId } = await t.buildThread(author, { title: 'Read once for the page' });
    await t.buildReply(author, threadId, { text: 'the one reply' });
    const replies = `/api/v3/posts.list?threadId=${threadId}&page=1&perPage=20`;
    const render = pageApi(t.app, pageRequest({}), null);
    expect((await render('GET', `/api/v3/thread.detail?threadId=${threadId}`)).Code).toBe(0);
    // Deleted between the render's two reads: the render goes on with the thread it read (one read, one thread).
    expect((await t.post('/api/v3/thread.delete', { threadId }, t.admin)).Code).toBe(0);
    const same = await render<{ pageData: { content: { html: string } }[] }>('GET', replies);
    expect(same.Code).toBe(0);
    expect(same.Data.pageData.map((p) => p.content.html).join('')).toContain('the one reply');
    // The next render reads it anew, as the HTTP route does.
    const next = await pageApi(t.app, pageRequest({}), null)('GET', replies);
    expect(next.Code).not.toBe(0);
    expect(stable(next)).toEqual(await overHttp({ name: 'guest', headers: {} }, replies));
  });

  it('asks app.inject for every read of a visitor the API would stop (a banned member)', async () => {
    const banned = await t.buildMember();
    expect(
      (await t.post('/api/backAdmin/users/update.user', { id: banned.id, status: 1, reason: 'x' }, t.admin)).Code,
    ).toBe(0);
    const headers = { authorization: `Bearer ${banned.token}` };
    const api = pageApi(t.app, pageRequest(headers), null);
    for (const path of ['/api/v3/forum', '/api/v3/thread.list?page=1&perPage=20&filter[sort]=2']) {
      expect(stable(await api('GET', path)), path).toEqual(await overHttp({ name: 'banned', headers }, path));
    }
    expect((await api('GET', '/api/v3/categories')).Code).not.toBe(0);
  });
});
