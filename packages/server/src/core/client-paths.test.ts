import fs from 'node:fs';
import { Code } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';
import { familySpelling } from './apiv3-alias.js';

// A long guest cache, so that the check of one cache for both spellings does not depend on the machine's speed.
const t = useTestServer({ env: { GUEST_CACHE_MS: '60000' } });

/**
 * The paths the Discuz! Q v3 web client calls (its SDK's request functions, discuz-fe v3.0.220113), with their
 * methods: a copy of the project's shared reference data (shared/dzq/client-api-paths.tsv, described in
 * shared/dzq/README.md), kept in the repository so that the test depends on nothing outside it.
 */
const TSV = new URL('../../test-data/dzq-client-api-paths.tsv', import.meta.url);

/**
 * What the client calls that this site does not route yet, as `METHOD path` exactly as the tsv writes it. The test
 * fails when a path missing here is not listed, and when a listed one starts to exist: take it off the list then.
 * Every call is routed today; the list stays for whatever a later copy of the client adds.
 */
const KNOWN_MISSING: string[] = [];

interface Call {
  method: 'GET' | 'POST';
  /** As the tsv writes it. */
  path: string;
  /**
   * The one route table's spelling (familySpelling): /api/v3/ for /apiv3/, /api/plugin/<appid>/ for a plugin's
   * /plugin/<appid>/api/.
   */
  route: string;
}

function clientCalls(): Call[] {
  const [header, ...rows] = fs.readFileSync(TSV, 'utf8').trim().split('\n');
  expect(header).toBe('path\tmethod');
  return rows.flatMap((row) => {
    const [path, methods] = row.split('\t') as [string, string];
    return methods.split(',').map((method) => {
      expect(['GET', 'POST']).toContain(method);
      return { method: method as Call['method'], path, route: familySpelling(path) };
    });
  });
}

const label = (c: Call) => `${c.method} ${c.path}`;
/** The other spelling of a call: the client's when it differs from the route's (/apiv3/x, /plugin/<appid>/api/x), else /apiv3/x. */
const otherSpelling = (c: Call) => (c.path !== c.route ? c.path : c.route.replace(/^\/api\/v3\//, '/apiv3/'));
const ENVELOPE_KEYS = ['Code', 'Data', 'Message', 'RequestId', 'RequestTime'];

describe("the family's client calls (contract)", () => {
  const calls = clientCalls();
  const isRouted = (c: Call) => t.app.hasRoute({ method: c.method, url: c.route });

  it('routes every method and path the client calls, but the known missing ones', () => {
    expect(calls).toHaveLength(111); // 110 paths, wallet/cash with two methods
    const missing = calls.filter((c) => !isRouted(c)).map(label);
    expect(missing.sort()).toEqual([...KNOWN_MISSING].sort());
    expect(calls.length - missing.length).toBe(calls.length - KNOWN_MISSING.length);
    expect(calls.filter(isRouted)).toHaveLength(111); // all of them
  });

  it('answers every routed call at both spellings, in the envelope, and never as an unknown path', async () => {
    for (const c of calls.filter(isRouted)) {
      const body = c.method === 'POST' ? {} : undefined;
      const canonical = await t.call(c.method, c.route, { body });
      const alias = await t.call(c.method, otherSpelling(c), { body });
      for (const res of [canonical, alias]) {
        expect(res.status, label(c)).not.toBe(404);
        expect(res.status, label(c)).not.toBe(405);
        expect(Object.keys(res.body).sort(), label(c)).toEqual(ENVELOPE_KEYS);
      }
      expect([alias.status, alias.body.Code], label(c)).toEqual([canonical.status, canonical.body.Code]);
    }
  });

  it('answers the known missing API calls as an unknown path (404, -4004) at both spellings', async () => {
    for (const c of calls.filter((c) => !isRouted(c) && c.route.startsWith('/api/v3/'))) {
      for (const url of [c.route, otherSpelling(c)]) {
        const res = await t.call(c.method, url, { body: c.method === 'POST' ? {} : undefined });
        expect(res.status, `${c.method} ${url}`).toBe(404);
        expect(res.body.Code, `${c.method} ${url}`).toBe(Code.RESOURCE_NOT_FOUND);
        expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
      }
    }
  });
});

describe("/apiv3/: the family's other spelling of /api/v3/", () => {
  it('answers reads the same at both spellings, with their query strings', async () => {
    const forum = await t.call('GET', '/api/v3/forum');
    const aliased = await t.call('GET', '/apiv3/forum');
    expect(aliased.status).toBe(200);
    expect(aliased.body.Code).toBe(0);
    expect(aliased.body.Data).toEqual(forum.body.Data);
    // One route, so one guest-cache entry: the second spelling is served from the first one's answer.
    expect(aliased.headers['x-guest-cache']).toBe('hit');

    await t.buildThread();
    await t.buildThread();
    const page = await t.get<{ pageData: unknown[]; perPage: number }>('/apiv3/thread.list?perPage=1', t.admin);
    expect(page.Code).toBe(0);
    expect(page.Data.perPage).toBe(1);
    expect(page.Data.pageData).toHaveLength(1);
  });

  it('answers writes at /apiv3/, signed in by what it answered', async () => {
    const login = await t.post<{ accessToken: string }>('/apiv3/users/username.login', ADMIN);
    expect(login.Code).toBe(0);
    const token = login.Data.accessToken;
    const notices = await t.get<unknown>('/apiv3/unreadnotification', token);
    expect(notices.Code).toBe(0);
    const wrong = await t.post('/apiv3/users/username.login', { ...ADMIN, password: 'not-the-password' });
    expect(wrong.Code).toBe(Code.LOGIN_FAILED);
  });

  it('keeps the /api hooks: a cross-site write is refused, a guest is asked to log in', async () => {
    const crossSite = await t.call('POST', '/apiv3/users/username.login', {
      body: ADMIN,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.Code).toBe(Code.UNAUTHORIZED);
    const guest = await t.call('GET', '/apiv3/wallet/user');
    expect(guest.body.Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('answers an unknown path under /apiv3 as /api does: 404 and -4004 in the envelope', async () => {
    for (const method of ['GET', 'POST'] as const) {
      for (const url of ['/apiv3/no.such.call', '/apiv3', '/apiv3/']) {
        const res = await t.call(method, url);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
        expect(res.body.Code).toBe(Code.RESOURCE_NOT_FOUND);
      }
    }
  });

  it('rewrites only the /apiv3 segment itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/apiv3x/forum' });
    expect(res.body.startsWith('{"Code":0')).toBe(false);
  });

  it('documents each route once, under /api/v3/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/api/v3/forum');
    expect(paths).toContain('/api/v3/coskey');
    expect(paths.filter((p) => p.startsWith('/apiv3'))).toEqual([]);
  });
});
