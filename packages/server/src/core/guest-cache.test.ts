import type { Page, ThreadItem } from '@luntan/shared';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildThread } from '../test/factories.js';
import { buildUser, startTestServer } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

const LIST = '/api/v3/thread.list?perPage=50';

type ListAnswer = Page<ThreadItem>;

describe('guest answer cache', () => {
  const t = useTestServer({ env: { GUEST_CACHE_MS: '60000' } });
  let member: Awaited<ReturnType<typeof buildUser>>;

  // A long lifetime: within one test only writes may make an answer change.
  beforeAll(async () => {
    member = await buildUser(t);
    await buildThread(t, member.token, { title: 'first thread' });
  });

  const guestList = () => t.call<ListAnswer>('GET', LIST);
  const titles = (page: ListAnswer) => page.pageData.map((item) => item.title);

  it('answers the same guest read again from the cache, with its own RequestId and RequestTime', async () => {
    const first = await guestList();
    const second = await guestList();
    expect(first.headers['x-guest-cache']).toBe('miss');
    expect(second.headers['x-guest-cache']).toBe('hit');
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    expect(second.body.Data).toEqual(first.body.Data);
    expect(second.body.Code).toBe(0);
    expect(second.body.RequestId).not.toBe(first.body.RequestId);
    expect(Date.parse(second.body.RequestTime)).toBeGreaterThanOrEqual(Date.parse(first.body.RequestTime));
  });

  it('never serves a signed-in viewer from it', async () => {
    await guestList();
    const signedIn = await t.call<ListAnswer>('GET', LIST, { token: member.token });
    expect(signedIn.headers['x-guest-cache']).toBeUndefined();
    expect(signedIn.body.Code).toBe(0);
  });

  it('shows a guest a new thread at once after a write in this process', async () => {
    await guestList();
    expect((await guestList()).headers['x-guest-cache']).toBe('hit');
    await buildThread(t, member.token, { title: 'written after caching' });
    const after = await guestList();
    expect(after.headers['x-guest-cache']).toBe('miss');
    expect(titles(after.body.Data)).toContain('written after caching');
  });

  it('forgets answers after deletes and moderation too, not only after new threads', async () => {
    const thread = await buildThread(t, member.token, { title: 'to be deleted' });
    expect(titles((await guestList()).body.Data)).toContain('to be deleted');
    const deleted = await t.post('/api/v3/thread.delete', { threadId: thread.threadId }, t.admin);
    expect(deleted.Code).toBe(0);
    expect(titles((await guestList()).body.Data)).not.toContain('to be deleted');
  });

  it('keeps its answers when only a view is counted', async () => {
    const thread = await buildThread(t, member.token);
    const url = `/api/v3/thread.detail?threadId=${thread.threadId}`;
    await t.call('GET', url);
    const counted = await t.post('/api/v3/view.count', { threadId: thread.threadId });
    expect(counted.Code).toBe(0);
    expect((await t.call('GET', url)).headers['x-guest-cache']).toBe('hit');
  });

  it('keeps its answers through refused and failed calls, so bad requests cannot keep it empty', async () => {
    await guestList();
    const failedLogin = await t.post('/api/v3/users/username.login', { username: member.username, password: 'wrong' });
    expect(failedLogin.Code).not.toBe(0);
    const badInput = await t.post('/api/v3/thread.create', { categoryId: 1, title: '' }, member.token);
    expect(badInput.Code).toBe(-4001);
    const guestWrite = await t.post('/api/v3/thread.create', { categoryId: 1, title: 'x', content: { text: 'y' } });
    expect(guestWrite.Code).not.toBe(0);
    expect((await guestList()).headers['x-guest-cache']).toBe('hit');
  });

  it('keeps answers apart by language and by address', async () => {
    const zh = await t.call('GET', LIST, { headers: { cookie: 'locale=zh' } });
    const en = await t.call('GET', LIST, { headers: { cookie: 'locale=en' } });
    expect(en.headers['x-guest-cache']).toBe('miss');
    expect(en.body.Message).not.toBe(zh.body.Message);
    const other = await t.call('GET', '/api/v3/thread.list?perPage=1');
    expect(other.headers['x-guest-cache']).toBe('miss');
    expect((other.body.Data as ListAnswer).pageData).toHaveLength(1);
  });

  it('never keeps a failure', async () => {
    const url = '/api/v3/thread.detail?threadId=999999';
    const first = await t.call('GET', url);
    const second = await t.call('GET', url);
    expect(first.body.Code).toBe(-4004);
    expect(second.body.Code).toBe(-4004);
    expect(second.headers['x-guest-cache']).toBe('miss');
  });

  it('leaves reads that are not marked public alone', async () => {
    const res = await t.call('GET', '/api/v3/unreadnotification', { token: member.token });
    expect(res.headers['x-guest-cache']).toBeUndefined();
    const counted = await t.call('GET', '/api/v3/view.count?threadId=1');
    expect(counted.headers['x-guest-cache']).toBeUndefined();
  });
});

describe('guest answer cache lifetime', () => {
  afterEach(() => vi.useRealTimers());

  it('shows changes made outside this process once the lifetime has passed', async () => {
    // The cache measures lifetimes with performance.now(): faked before the server is built, so only the test moves
    // it (a busy machine cannot make an answer expire early or late).
    vi.useFakeTimers({ toFake: ['performance'] });
    // The faked clock starts at 0, which lru-cache takes for "stored without a lifetime".
    vi.advanceTimersByTime(1);
    const t = await startTestServer({ env: { GUEST_CACHE_MS: '60000' } });
    try {
      const member = await buildUser(t);
      const thread = await buildThread(t, member.token, { title: 'before' });
      const url = `/api/v3/thread.detail?threadId=${thread.threadId}`;
      expect((await t.get<{ title: string }>(url)).Data.title).toBe('before');
      // Another process (or the demo seeder) writes straight to the database: this process hears nothing of it.
      await t.server.database.db
        .updateTable('threads')
        .set({ title: 'after' })
        .where('id', '=', thread.threadId)
        .execute();
      const soon = await t.call<{ title: string }>('GET', url);
      expect(soon.headers['x-guest-cache']).toBe('hit');
      expect(soon.body.Data.title).toBe('before');
      vi.advanceTimersByTime(59_999);
      const late = await t.call<{ title: string }>('GET', url);
      expect(late.headers['x-guest-cache']).toBe('hit');
      expect(late.body.Data.title).toBe('before');
      vi.advanceTimersByTime(2);
      const expired = await t.call<{ title: string }>('GET', url);
      expect(expired.headers['x-guest-cache']).toBe('miss');
      expect(expired.body.Data.title).toBe('after');
    } finally {
      await t.close();
    }
  });

  it('is off with GUEST_CACHE_MS=0', async () => {
    const t = await startTestServer({ env: { GUEST_CACHE_MS: '0' } });
    try {
      await t.call('GET', LIST);
      const again = await t.call('GET', LIST);
      expect(again.headers['x-guest-cache']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
