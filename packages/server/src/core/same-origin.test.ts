import { Code } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildThread } from '../test/factories.js';
import { ADMIN } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

const t = useTestServer();
let token: string;

beforeAll(async () => {
  token = await t.login(ADMIN.username, ADMIN.password);
});

const siteName = async () => (await t.get<{ siteName: string }>('/api/siteinfo.v2')).Data.siteName;

/** A settings write carried by the cookie, with the headers a browser would add. */
function writeWithCookie(name: string, headers: Record<string, string>, auth: 'cookie' | 'header' = 'cookie') {
  return t.call('POST', '/api/settings.v2', {
    body: { data: [{ key: 'siteName', value: name, tag: 'default' }] },
    headers: {
      host: 'forum.example:3000',
      ...(auth === 'cookie' ? { cookie: `access_token=${token}` } : { authorization: `Bearer ${token}` }),
      ...headers,
    },
  });
}

describe('writes from other sites', () => {
  it.each([
    ['a page on another port (same site)', { 'sec-fetch-site': 'same-site', origin: 'http://forum.example:4000' }],
    ['a page of another site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['an older browser on another port (Origin only)', { origin: 'http://forum.example:4000' }],
    ['an older browser on a sibling subdomain', { origin: 'http://evil.forum.example:3000' }],
    ['an opaque origin (sandboxed frame)', { origin: 'null' }],
  ])('refuses %s with the cookie: 403, -4002, nothing changed', async (_name, headers) => {
    const before = await siteName();
    const res = await writeWithCookie('hijacked', headers);
    expect(res.status).toBe(403);
    expect(res.body.Code).toBe(Code.UNAUTHORIZED);
    expect(await siteName()).toBe(before);
  });

  it.each([
    ['our own page', { 'sec-fetch-site': 'same-origin', origin: 'http://forum.example:3000' }],
    ['our own page in an older browser', { origin: 'http://forum.example:3000' }],
    ['a typed address or bookmark', { 'sec-fetch-site': 'none' }],
    ['a program without browser headers', {}],
  ])('accepts %s', async (name, headers) => {
    const res = await writeWithCookie(`ok ${name}`, headers);
    expect(res.body.Code).toBe(0);
    expect(await siteName()).toBe(`ok ${name}`);
  });

  it('leaves calls with an Authorization header alone, whatever page sent them', async () => {
    const res = await writeWithCookie(
      'by header',
      { 'sec-fetch-site': 'cross-site', origin: 'https://app.example' },
      'header',
    );
    expect(res.body.Code).toBe(0);
  });

  it('does not take a Basic or Negotiate header (sent by the browser itself) for a call without the cookie', async () => {
    const before = await siteName();
    for (const authorization of ['Basic Zm9vOmJhcg==', 'Negotiate YIIabc', 'Bearer']) {
      const res = await writeWithCookie('hijacked', { 'sec-fetch-site': 'same-site', authorization });
      expect(res.status, authorization).toBe(403);
    }
    expect(await siteName()).toBe(before);
  });

  it('refuses a cross-site sign-in too (login CSRF), but lets a cross-site page read', async () => {
    const login = await t.call('POST', '/api/v3/users/username.login', {
      body: ADMIN,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(login.body.Code).toBe(Code.UNAUTHORIZED);
    const read = await t.call('GET', '/api/siteinfo.v2', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(read.body.Code).toBe(0);
  });
});

describe('GETs that change something', () => {
  /** A GET as an `<img src>` on another site sends it: the member's cookie, Sec-Fetch-Site cross-site, no Origin. */
  const fromImage = (url: string, site = 'cross-site') =>
    t.call('GET', url, {
      headers: { host: 'forum.example:3000', cookie: `access_token=${token}`, 'sec-fetch-site': site },
    });

  it('refuses making an invitation link from another site, and makes none', async () => {
    const count = async () =>
      Number(
        (
          await t.app.ctx.db
            .selectFrom('invites')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const res = await fromImage('/api/v3/invite.link.create');
    expect(res.status).toBe(403);
    expect(res.body.Code).toBe(Code.UNAUTHORIZED);
    expect(await count()).toBe(before);
    // From our own page it works.
    expect((await fromImage('/api/v3/invite.link.create', 'same-origin')).body.Code).toBe(0);
    expect(await count()).toBe(before + 1);
  });

  it('refuses listing (and so reading) notices and counting a view from another site', async () => {
    const thread = await buildThread(t, token);
    const views = async () =>
      (await t.get<{ viewCount: number }>(`/api/v3/thread.detail?threadId=${thread.threadId}`)).Data.viewCount;
    const before = await views();
    for (const site of ['cross-site', 'same-site']) {
      const notices = await fromImage('/api/v3/notification', site);
      expect(notices.body.Code).toBe(Code.UNAUTHORIZED);
      const view = await fromImage(`/api/v3/view.count?threadId=${thread.threadId}`, site);
      expect(view.body.Code).toBe(Code.UNAUTHORIZED);
    }
    expect(await views()).toBe(before);
    expect((await fromImage('/api/v3/notification', 'same-origin')).body.Code).toBe(0);
  });

  it('lets another site read what changes nothing, with the cookie', async () => {
    expect((await fromImage('/api/v3/thread.list')).body.Code).toBe(0);
    expect((await fromImage('/api/v3/unreadnotification')).body.Code).toBe(0);
  });
});
