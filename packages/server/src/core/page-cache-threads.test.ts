import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PostItem, ThreadDetail } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStorage, startTestServer, type TestServer } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';
import { setSettings } from '../test/captcha-fixtures.js';
import { PAGE_LISTS_VERSION, PAGES_VERSION } from './page-cache.js';

/*
 * Kept pages staled per thread (core/page-cache.ts): a write whose events name threads stales those threads' pages
 * and the lists, and every other thread's kept pages stay; anything else stales every page. Needs the web build, as
 * core/page-cache.test.ts does.
 */

interface Seen {
  status: number;
  /** x-guest-cache: hit, miss or shared. */
  cache: string | undefined;
  html: string;
}

async function page(t: TestServer, url: string, token?: string): Promise<Seen> {
  const res = await t.app.inject({ url, headers: token ? { cookie: `access_token=${token}` } : {} });
  return { status: res.statusCode, cache: res.headers['x-guest-cache'] as string | undefined, html: res.body };
}

/**
 * Asks for the pages until each is served kept (a hit): the state every test starts from. A page sent while it
 * renders is kept once the render ends, so the second ask may still share that render.
 */
async function keep(t: TestServer, urls: string[], token?: string): Promise<void> {
  for (const url of urls) {
    let seen = await page(t, url, token);
    for (let i = 0; i < 5 && seen.cache !== 'hit'; i += 1) seen = await page(t, url, token);
    expect(seen.status, `${url}: ${/<h1[^>]*>(.*?)<\/h1>/.exec(seen.html)?.[1] ?? ''}`).toBe(200);
    expect(seen.cache, url).toBe('hit');
  }
}

/**
 * The first render of a page loads its module, which on a starved machine may outlast the page's asset timeout: the
 * tests start once the web app's own warm-up (the one the server starts when ready) has loaded them all, and after a
 * good render of each page they ask for.
 */
async function warmUp(t: TestServer): Promise<void> {
  const entry = path.join(path.dirname(require.resolve('@luntan/web/package.json')), 'dist/server/entry-server.js');
  const web = (await import(pathToFileURL(entry).href)) as { warmUp?: () => Promise<void> };
  await web.warmUp?.();
  for (const url of ['/thread/999999999', '/', '/search']) {
    for (let i = 0; i < 5; i += 1) if ((await page(t, url)).status < 500) break;
  }
}

const require = createRequire(import.meta.url);

const threadUrl = (thread: ThreadDetail) => `/thread/${thread.threadId}`;

async function counter(t: TestServer, name: string): Promise<number> {
  const row = await t.server.database.db
    .selectFrom('cacheVersions')
    .select('version')
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

async function threadCounter(t: TestServer, threadId: number): Promise<number> {
  const row = await t.server.database.db
    .selectFrom('threadPageVersions')
    .select('version')
    .where('threadId', '=', threadId)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

describe('kept pages staled per thread', () => {
  const t = useTestServer({ env: { GUEST_CACHE_MS: '1' } });
  beforeAll(() => warmUp(t.current));

  it("keeps thread B's page after a reply to thread A of the same category; A and the lists are fresh", async () => {
    const author = await t.buildMember();
    const a = await t.buildThread(author, { title: 'thread A one' });
    const b = await t.buildThread(author, { title: 'thread B one' });
    expect(b.categoryId).toBe(a.categoryId);
    await keep(t.current, [threadUrl(a), `${threadUrl(a)}?page=2`, threadUrl(b), '/', '/search']);
    const site = await counter(t.current, PAGES_VERSION);
    const [ownA, ownB] = [await threadCounter(t.current, a.threadId), await threadCounter(t.current, b.threadId)];

    await t.buildReply(author, a.threadId, { text: 'a reply to thread A' });

    const inB = await page(t.current, threadUrl(b));
    expect(inB.cache).toBe('hit');
    expect(inB.html).toContain('thread B one');
    const inA = await page(t.current, threadUrl(a));
    expect(inA.cache).toBe('miss');
    expect(inA.html).toContain('a reply to thread A');
    expect((await page(t.current, `${threadUrl(a)}?page=2`)).cache).toBe('miss');
    for (const list of ['/', '/search']) expect((await page(t.current, list)).cache, list).toBe('miss');
    // Neither the write nor what its subscribers wrote (delivered before the reply answered: the harness drains)
    // touched the site's counter.
    expect(await counter(t.current, PAGES_VERSION)).toBe(site);
    expect(await threadCounter(t.current, b.threadId)).toBe(ownB);
    expect(await threadCounter(t.current, a.threadId)).toBeGreaterThan(ownA);
  });

  it("keeps B's page after a like, an edit, a deletion of a reply in A and A's deletion; A is fresh each time", async () => {
    const author = await t.buildMember();
    const fan = await t.buildMember();
    const a = await t.buildThread(author, { title: 'thread A two' });
    const b = await t.buildThread(author, { title: 'thread B two' });
    const reply = await t.buildReply(author, a.threadId, { text: 'first words of the reply' });
    await keep(t.current, [threadUrl(a), threadUrl(b)]);

    const liked = await t.post<PostItem>('/api/v3/posts.update', { id: reply.id, isLiked: true }, fan.token);
    expect(liked.Code).toBe(0);
    expect((await page(t.current, threadUrl(b))).cache).toBe('hit');
    expect((await page(t.current, threadUrl(a))).cache).toBe('miss');

    await keep(t.current, [threadUrl(a)]);
    const edited = await t.post('/api/v3/posts.update', { id: reply.id, content: 'edited words' }, author.token);
    expect(edited.Code).toBe(0);
    expect((await page(t.current, threadUrl(b))).cache).toBe('hit');
    const afterEdit = await page(t.current, threadUrl(a));
    expect(afterEdit.cache).toBe('miss');
    expect(afterEdit.html).toContain('edited words');
    expect(afterEdit.html).not.toContain('first words of the reply');

    await keep(t.current, [threadUrl(a)]);
    const hidden = await t.post('/api/v3/posts.update', { id: reply.id, isDeleted: true }, t.admin);
    expect(hidden.Code).toBe(0);
    expect((await page(t.current, threadUrl(b))).cache).toBe('hit');
    const afterHide = await page(t.current, threadUrl(a));
    expect(afterHide.cache).toBe('miss');
    expect(afterHide.html).not.toContain('edited words');

    await keep(t.current, [threadUrl(a), '/']);
    expect((await t.post('/api/v3/thread.delete', { threadId: a.threadId }, t.admin)).Code).toBe(0);
    expect((await page(t.current, threadUrl(b))).cache).toBe('hit');
    const gone = await page(t.current, threadUrl(a));
    expect(gone.cache).not.toBe('hit');
    expect(gone.html).not.toContain('thread A two');
    const home = await page(t.current, '/');
    expect(home.cache).toBe('miss');
    expect(home.html).not.toContain('thread A two');
  });

  it("stales B's page after a write that announces nothing (a favourite), a setting, a category's new name", async () => {
    const author = await t.buildMember();
    const reader = await t.buildMember();
    const category = await t.buildCategory({ name: 'old category name' });
    const a = await t.buildThread(author, { title: 'thread A three', categoryId: category });
    const b = await t.buildThread(author, { title: 'thread B three', categoryId: category });
    await keep(t.current, [threadUrl(b)]);

    const favorite = await t.post('/api/v3/threads/operate', { id: a.threadId, isFavorite: true }, reader.token);
    expect(favorite.Code).toBe(0);
    expect((await page(t.current, threadUrl(b))).cache).toBe('miss');

    await keep(t.current, [threadUrl(b)]);
    await setSettings(t.current, t.admin, [{ key: 'siteName', value: 'A renamed forum' }]);
    const afterSetting = await page(t.current, threadUrl(b));
    expect(afterSetting.cache).toBe('miss');
    expect(afterSetting.html).toContain('A renamed forum');

    await keep(t.current, [threadUrl(b)]);
    const renamed = await t.post('/api/backAdmin/categories.update', { id: category, name: 'new name' }, t.admin);
    expect(renamed.Code).toBe(0);
    const afterRename = await page(t.current, threadUrl(b));
    expect(afterRename.cache).toBe('miss');
    expect(afterRename.html).toContain('new name');
    expect(afterRename.html).not.toContain('old category name');
  });

  it("stales A's page, not B's, when the subscribers write what a reply to A means", async () => {
    const author = await t.buildMember();
    const a = await t.buildThread(author, { title: 'thread A four' });
    const b = await t.buildThread(author, { title: 'thread B four' });
    await keep(t.current, [threadUrl(b)]);
    const { events } = t.app.ctx;
    events.pause();
    try {
      // Straight through the app: the harness would deliver the events before it answers.
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v3/posts.create',
        headers: { authorization: `Bearer ${author.token}` },
        payload: { id: a.threadId, content: 'a reply the subscribers hear later' },
      });
      expect(res.json<{ Code: number }>().Code).toBe(0);
      // A's page rendered after the write, before its subscribers ran, is kept.
      await keep(t.current, [threadUrl(a), threadUrl(b)]);
    } finally {
      events.resume();
    }
    const before = await threadCounter(t.current, a.threadId);
    await events.drain();
    // The pass delivered post.created (search, topics, notifications, red packets...): A's counter moved again.
    expect(await threadCounter(t.current, a.threadId)).toBeGreaterThan(before);
    expect((await page(t.current, threadUrl(a))).cache).toBe('miss');
    expect((await page(t.current, threadUrl(b))).cache).toBe('hit');
  });

  it("keeps every thread's page after a private message", async () => {
    const [alice, bob] = [await t.buildMember(), await t.buildMember()];
    const b = await t.buildThread(alice, { title: 'thread B six' });
    await keep(t.current, [threadUrl(b), '/']);
    const sent = await t.post(
      '/api/v3/dialog.create',
      { recipientUserId: bob.id, messageText: 'a private word' },
      alice.token,
    );
    expect(sent.Code).toBe(0);
    expect((await page(t.current, threadUrl(b))).cache).toBe('hit');
    expect((await page(t.current, '/')).cache).toBe('miss');
  });

  it('keeps every page when a member signs in with a password and signs out', async () => {
    const member = await t.buildMember();
    const b = await t.buildThread(member, { title: 'thread B seven' });
    await keep(t.current, [threadUrl(b), '/']);
    const site = await counter(t.current, PAGES_VERSION);
    const login = await t.post<{ accessToken: string }>('/api/v3/users/username.login', {
      username: member.username,
      password: member.password,
    });
    expect(login.Code).toBe(0);
    const out = await t.post('/api/v3/users/logout', {}, login.Data.accessToken);
    expect(out.Code).toBe(0);
    expect(await counter(t.current, PAGES_VERSION)).toBe(site);
    for (const url of [threadUrl(b), '/']) expect((await page(t.current, url)).cache, url).toBe('hit');
  });

  it("keeps a member's page of B, rendered for their groups, after a reply to A", async () => {
    const author = await t.buildMember();
    const reader = await t.buildMember();
    const a = await t.buildThread(author, { title: 'thread A five' });
    const b = await t.buildThread(author, { title: 'thread B five' });
    await keep(t.current, [threadUrl(a), threadUrl(b)], reader.token);
    await t.buildReply(author, a.threadId, { text: 'members see this reply' });
    expect((await page(t.current, threadUrl(b), reader.token)).cache).toBe('hit');
    const inA = await page(t.current, threadUrl(a), reader.token);
    expect(inA.cache).toBe('miss');
    expect(inA.html).toContain('members see this reply');
  });

  it("raises thread A's counter and the lists' for a reply, the site's for a write that announces nothing", async () => {
    const author = await t.buildMember();
    const a = await t.buildThread(author);
    const [site, lists, own] = [
      await counter(t.current, PAGES_VERSION),
      await counter(t.current, PAGE_LISTS_VERSION),
      await threadCounter(t.current, a.threadId),
    ];
    await t.buildReply(author, a.threadId);
    expect(await counter(t.current, PAGES_VERSION)).toBe(site);
    expect(await counter(t.current, PAGE_LISTS_VERSION)).toBeGreaterThan(lists);
    expect(await threadCounter(t.current, a.threadId)).toBeGreaterThan(own);
    await t.post('/api/v3/threads/operate', { id: a.threadId, isFavorite: true }, author.token);
    expect(await counter(t.current, PAGES_VERSION)).toBeGreaterThan(site);
  });
});

/**
 * Two app processes over one database (and one Redis, when REDIS_TEST_URL is set): a write through the second stales
 * the first's kept page of its thread, and only that one.
 */
describe('kept pages staled per thread across processes', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const storage = newStorage();
    const env: Record<string, string> = { GUEST_CACHE_MS: '1000' };
    if (process.env.REDIS_TEST_URL) env.REDIS_URL = process.env.REDIS_TEST_URL;
    first = await startTestServer({ storage, env });
    second = await startTestServer({ storage, env });
    await warmUp(first);
  });
  afterAll(async () => {
    await second?.close({ keep: true });
    await first?.close();
  });

  it("a reply through the second stales the first's page of A, not of B", async () => {
    const admin = await second.login('admin', 'admin-password-1');
    const made = async (title: string) =>
      (
        await second.post<ThreadDetail>(
          '/api/v3/thread.create',
          { categoryId: 1, title, content: { text: 'body' } },
          admin,
        )
      ).Data;
    const a = await made(`process thread A ${process.pid}`);
    const b = await made(`process thread B ${process.pid}`);
    await keep(first, [threadUrl(a), threadUrl(b), '/']);

    const reply = await second.post('/api/v3/posts.create', { id: a.threadId, content: 'written elsewhere' }, admin);
    expect(reply.Code).toBe(0);

    const inA = await page(first, threadUrl(a));
    expect(inA.cache).toBe('miss');
    expect(inA.html).toContain('written elsewhere');
    expect((await page(first, '/')).cache).toBe('miss');
    expect((await page(first, threadUrl(b))).cache).toBe('hit');
  });
});
