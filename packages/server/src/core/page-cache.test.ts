import zlib from 'node:zlib';
import type { ThreadDetail } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStorage, startTestServer, type TestServer } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

/*
 * Kept pages (core/page-cache.ts): rendered once, kept until a write, compressed once and shared through Redis.
 * Needs the web build (`npm run build --workspace=@luntan/shared --workspace=@luntan/web`); without it every page is
 * the "not built" notice and these tests stop at their first check.
 */

interface PageAnswer {
  status: number;
  /** The page as the browser reads it (decoded). */
  html: string;
  /** The bytes as sent. */
  raw: Buffer;
  headers: Record<string, string | string[] | number | undefined>;
}

async function page(
  t: TestServer,
  url: string,
  options: { token?: string; encoding?: string; headers?: Record<string, string> } = {},
): Promise<PageAnswer> {
  const res = await t.app.inject({
    url,
    headers: {
      ...options.headers,
      ...(options.encoding === undefined ? {} : { 'accept-encoding': options.encoding }),
      ...(options.token ? { cookie: `access_token=${options.token}` } : {}),
    },
  });
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  const html =
    encoding === 'br'
      ? zlib.brotliDecompressSync(raw).toString('utf8')
      : encoding === 'gzip'
        ? zlib.gunzipSync(raw).toString('utf8')
        : raw.toString('utf8');
  return { status: res.statusCode, html, raw, headers: res.headers };
}

const threadUrl = (thread: ThreadDetail) => `/thread/${thread.threadId}`;

describe('kept pages', () => {
  // A lifetime of 1 ms for the guests' API answers: a page is kept for longer all the same (until a write).
  const t = useTestServer({ env: { GUEST_CACHE_MS: '1' } });

  it('keeps a thread page past the guest answers’ lifetime, until a write', async () => {
    const thread = await t.buildThread(undefined, { title: 'kept thread page' });
    const first = await page(t, threadUrl(thread));
    expect(first.status).toBe(200);
    expect(first.headers['x-guest-cache']).toBe('miss');
    expect(first.html).toContain('kept thread page');
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await page(t, threadUrl(thread));
    expect(second.headers['x-guest-cache']).toBe('hit');
    expect(second.headers['x-page-source']).toBe('memory');
    expect(second.html).toBe(first.html);

    await t.buildReply(t.admin, thread.threadId, { text: 'a reply written later' });
    const after = await page(t, threadUrl(thread));
    expect(after.headers['x-guest-cache']).toBe('miss');
    expect(after.html).toContain('a reply written later');
  });

  it("is stale for every process once the write raised its thread's counter (core/page-cache-threads.test.ts)", async () => {
    const thread = await t.buildThread();
    await page(t, threadUrl(thread));
    const read = () =>
      t.server.database.db
        .selectFrom('threadPageVersions')
        .select('version')
        .where('threadId', '=', thread.threadId)
        .executeTakeFirst();
    const before = await read();
    await t.buildReply(t.admin, thread.threadId);
    const raised = await read();
    expect(raised?.version ?? 0).toBeGreaterThan(before?.version ?? 0);
  });

  it('sends the bytes compressed once when kept, by Accept-Encoding, never compressed twice', async () => {
    const thread = await t.buildThread(undefined, { title: 'encoded page' });
    const plain = await page(t, threadUrl(thread));
    const br = await page(t, threadUrl(thread), { encoding: 'gzip, deflate, br' });
    const gz = await page(t, threadUrl(thread), { encoding: 'gzip' });
    const preferGzip = await page(t, threadUrl(thread), { encoding: 'br;q=0.5, gzip' });
    const none = await page(t, threadUrl(thread), { encoding: 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(preferGzip.headers['content-encoding']).toBe('gzip');
    expect(none.headers['content-encoding']).toBeUndefined();
    for (const answer of [plain, br, gz, preferGzip, none]) {
      // Decoded once, each is the very page: a second compression would leave compressed bytes here.
      expect(answer.html).toBe(plain.html);
      expect(answer.html).toContain('encoded page');
      expect(String(answer.headers.vary)).toMatch(/accept-encoding/i);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      // The first visit is streamed as it renders (modules/web/stream-page.ts): no length is known ahead.
      if (answer !== plain) expect(Number(answer.headers['content-length'])).toBe(answer.raw.length);
    }
    expect(br.raw.length).toBeLessThan(plain.raw.length / 3);
    // The page's policy goes with it, the same for every visitor (no nonce).
    expect(br.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    // A miss sends the kept bytes too.
    await t.buildReply(t.admin, thread.threadId);
    const miss = await page(t, threadUrl(thread), { encoding: 'br' });
    expect(miss.headers['x-guest-cache']).toBe('miss');
    expect(miss.headers['content-encoding']).toBe('br');
    expect(miss.html).toContain('encoded page');
  });

  it('keeps pages apart by page number, language and layout', async () => {
    const thread = await t.buildThread();
    await page(t, threadUrl(thread));
    expect((await page(t, `${threadUrl(thread)}?page=2`)).headers['x-guest-cache']).toBe('miss');
    expect((await page(t, threadUrl(thread), { headers: { cookie: 'locale=en' } })).headers['x-guest-cache']).toBe(
      'miss',
    );
    const mobile = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile' };
    expect((await page(t, threadUrl(thread), { headers: mobile })).headers['x-guest-cache']).toBe('miss');
    expect((await page(t, threadUrl(thread), { headers: mobile })).headers['x-guest-cache']).toBe('hit');
  });

  it('gives members of the same groups one kept page that names none of them, an anonymous author too', async () => {
    const author = await t.buildMember({ nickname: 'Hidden Author' });
    const reader = await t.buildMember({ nickname: 'Plain Reader' });
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: 'anonymous kept', content: { text: 'who wrote this' }, anonymous: 1 },
      author.token,
    );
    expect(made.Code).toBe(0);
    const url = threadUrl(made.Data);
    const byReader = await page(t, url, { token: reader.token, encoding: 'br' });
    const byAuthor = await page(t, url, { token: author.token, encoding: 'br' });
    const byGuest = await page(t, url);
    expect(byReader.headers['x-guest-cache']).toBe('miss');
    expect(byAuthor.headers['x-guest-cache']).toBe('hit');
    expect(byAuthor.html).toBe(byReader.html);
    for (const answer of [byReader, byGuest]) {
      expect(answer.html).toContain('anonymous kept');
      expect(answer.html).not.toContain('Hidden Author');
      expect(answer.html).not.toContain(author.username);
      expect(answer.html).not.toContain('Plain Reader');
    }
  });

  it('renders a paid thread for each member as themselves, never from a kept page', async () => {
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: 'paid kept', content: { text: 'paid words' }, price: '5.00', freeWords: 0 },
      t.admin,
    );
    expect(made.Code).toBe(0);
    const member = await t.buildMember();
    for (let i = 0; i < 2; i += 1) {
      const own = await page(t, threadUrl(made.Data), { token: member.token });
      expect(own.status).toBe(200);
      expect(own.headers['x-guest-cache']).toBeUndefined();
      expect(own.html).not.toContain('"forGroups":true');
    }
    // A guest sees the paywall, kept like any guest page.
    await page(t, threadUrl(made.Data));
    expect((await page(t, threadUrl(made.Data))).headers['x-guest-cache']).toBe('hit');
  });
});

describe('kept pages with GUEST_CACHE_MS=0', () => {
  const t = useTestServer({ env: { GUEST_CACHE_MS: '0' } });

  it('keeps nothing', async () => {
    const thread = await t.buildThread();
    await page(t, threadUrl(thread));
    const again = await page(t, threadUrl(thread), { encoding: 'br' });
    expect(again.status).toBe(200);
    expect(again.headers['x-guest-cache']).toBeUndefined();
    // Compressed by the answer's own compression.
    expect(again.headers['content-encoding']).toBe('br');
  });
});

/** Two app processes over one database and one Redis: a page one rendered, the other serves; a write clears both. */
describe.runIf(process.env.REDIS_TEST_URL)('kept pages shared through Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const storage = newStorage();
    const env = { GUEST_CACHE_MS: '1000', REDIS_URL: process.env.REDIS_TEST_URL! };
    a = await startTestServer({ storage, env });
    b = await startTestServer({ storage, env });
  });
  afterAll(async () => {
    await b.close({ keep: true });
    await a.close();
  });

  it('serves in B what A rendered, and a write through A makes both render again', async () => {
    const admin = await a.login('admin', 'admin-password-1');
    const made = await a.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: `shared page ${process.pid}`, content: { text: 'body' } },
      admin,
    );
    expect(made.Code).toBe(0);
    // What the subscribers write on hearing of the thread stales its page (core/page-cache.ts); either process may
    // deliver it (both hear the outbox), so both have delivered before a page is kept.
    const delivered = () => Promise.all([a.app.ctx.events.drain(), b.app.ctx.events.drain()]);
    await delivered();
    const url = threadUrl(made.Data);
    const inA = await page(a, url, { encoding: 'br' });
    expect(inA.headers['x-guest-cache']).toBe('miss');
    const inB = await page(b, url, { encoding: 'br' });
    expect(inB.headers['x-guest-cache']).toBe('hit');
    expect(inB.headers['x-page-source']).toBe('redis');
    expect(inB.html).toBe(inA.html);
    expect(inB.raw.equals(inA.raw)).toBe(true);
    expect((await page(b, url, { encoding: 'br' })).headers['x-page-source']).toBe('memory');

    const reply = await a.post('/api/v3/posts.create', { id: made.Data.threadId, content: 'seen by both' }, admin);
    expect(reply.Code).toBe(0);
    await delivered();
    // B renders the page again (its kept copy and the shared one are stale), and A is served what B kept.
    const afterInB = await page(b, url, { encoding: 'br' });
    expect(afterInB.headers['x-guest-cache']).toBe('miss');
    expect(afterInB.html).toContain('seen by both');
    const afterInA = await page(a, url, { encoding: 'br' });
    expect(afterInA.headers['x-page-source']).toBe('redis');
    expect(afterInA.html).toContain('seen by both');
  });
});
