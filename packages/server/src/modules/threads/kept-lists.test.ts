import type { CategoryItem, Page, ThreadItem } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestFixture } from '../../test/fixture.js';
import { block } from '../../test/forum-fixtures.js';

/*
 * The kept pages of the thread lists (kept-lists.ts): one read of a list serves every member who blocked nobody until
 * a write moves the counters, and each of them still gets their own marks. A title changed straight in the database
 * moves no counter, so whether it shows tells whether the page was kept.
 */

const list = async (t: TestFixture, token: string, query = '') => {
  const res = await t.get<Page<ThreadItem>>(`/api/v3/thread.list?perPage=50${query}`, token);
  expect(res.Code).toBe(0);
  return res.Data;
};
const titleOf = async (t: TestFixture, token: string, threadId: number) =>
  (await list(t, token)).pageData.find((item) => item.threadId === threadId)?.title;
/** A change that announces nothing and raises no counter: only a list read again shows it. */
const retitleBehindTheForum = (t: TestFixture, threadId: number, title: string) =>
  t.server.database.db.updateTable('threads').set({ title }).where('id', '=', threadId).execute();

describe('kept thread lists', () => {
  const t = useTestServer({ env: { LIST_KEEP_MS: '60000' } });

  it('serves one read of a page to every member who blocked nobody, until a write through the forum', async () => {
    const [alice, bob] = [await t.buildMember(), await t.buildMember()];
    const thread = await t.buildThread(alice, { title: 'first title' });
    expect(await titleOf(t, alice.token, thread.threadId)).toBe('first title');
    await retitleBehindTheForum(t, thread.threadId, 'changed behind');
    // Kept from alice's read, for bob too.
    expect(await titleOf(t, bob.token, thread.threadId)).toBe('first title');
    // Any write through the forum moves the lists' counter: the next read is a new one.
    await t.buildReply(bob, thread.threadId);
    expect(await titleOf(t, bob.token, thread.threadId)).toBe('changed behind');
  });

  it("shows a member's own new thread on their next call", async () => {
    const [alice, bob] = [await t.buildMember(), await t.buildMember()];
    await list(t, alice.token);
    const mine = await t.buildThread(bob, { title: 'just written' });
    const page = await list(t, bob.token);
    expect(page.pageData[0]).toMatchObject({ threadId: mine.threadId, title: 'just written' });
  });

  it('presents a kept page for each member: their own likes', async () => {
    const [alice, bob] = [await t.buildMember(), await t.buildMember()];
    const thread = await t.buildThread(alice, { title: 'liked once' });
    expect((await t.post('/api/v3/posts.update', { id: thread.postId, isLiked: true }, alice.token)).Code).toBe(0);
    const bobs = (await list(t, bob.token)).pageData.find((item) => item.threadId === thread.threadId);
    expect(bobs).toMatchObject({ likeCount: 1, isLiked: false });
    await retitleBehindTheForum(t, thread.threadId, 'not shown while kept');
    const alices = (await list(t, alice.token)).pageData.find((item) => item.threadId === thread.threadId);
    // The same kept page (the old title), with alice's own mark.
    expect(alices).toMatchObject({ title: 'liked once', likeCount: 1, isLiked: true });
  });

  it('leaves out the authors a member blocked, though the page is kept for the others', async () => {
    const [author, reader, blocker] = [await t.buildMember(), await t.buildMember(), await t.buildMember()];
    const thread = await t.buildThread(author, { title: 'by the blocked author' });
    const before = await list(t, reader.token);
    expect(before.pageData.map((item) => item.threadId)).toContain(thread.threadId);
    // Straight into the table (as a block made by another process): only its own counter moves.
    await block(t.current, blocker.id, author.id);
    const blockers = await list(t, blocker.token);
    expect(blockers.pageData.map((item) => item.threadId)).not.toContain(thread.threadId);
    expect(blockers.totalCount).toBe(before.totalCount - 1);
    // The others are still served the kept page.
    await retitleBehindTheForum(t, thread.threadId, 'changed behind');
    expect(await titleOf(t, reader.token, thread.threadId)).toBe('by the blocked author');
  });

  it('keeps no search', async () => {
    const member = await t.buildMember();
    const thread = await t.buildThread(member, { title: 'searchable walnut' });
    expect((await list(t, member.token, '&filter[search]=walnut')).pageData[0]?.title).toBe('searchable walnut');
    await retitleBehindTheForum(t, thread.threadId, 'searchable walnut again');
    expect((await list(t, member.token, '&filter[search]=walnut')).pageData[0]?.title).toBe('searchable walnut again');
  });

  it('shows a category written straight to the database at once (its counter moves by trigger)', async () => {
    const categoryId = await t.buildCategory({ name: 'old name' });
    const names = async () => (await t.get<CategoryItem[]>('/api/v3/categories', t.admin)).Data.map((c) => c.name);
    expect(await names()).toContain('old name');
    await t.server.database.db
      .updateTable('categories')
      .set({ name: 'new name' })
      .where('id', '=', categoryId)
      .execute();
    expect(await names()).toContain('new name');
  });
});

describe('kept thread lists, for a short time', () => {
  const t = useTestServer({ env: { LIST_KEEP_MS: '300' } });

  it('shows views within LIST_KEEP_MS, though counting one moves no counter', async () => {
    const [alice, bob] = [await t.buildMember(), await t.buildMember()];
    const thread = await t.buildThread(alice);
    const views = async () =>
      (await list(t, alice.token)).pageData.find((i) => i.threadId === thread.threadId)?.viewCount;
    expect(await views()).toBe(0);
    expect((await t.post('/api/v3/view.count', { threadId: thread.threadId }, bob.token)).Code).toBe(0);
    expect(await views()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await views()).toBe(1);
  });
});

describe.each([
  ['LIST_KEEP_MS=0', { LIST_KEEP_MS: '0' }],
  ['GUEST_CACHE_MS=0 (no counter moves)', { GUEST_CACHE_MS: '0' }],
])('thread lists with %s', (_name, env) => {
  const t = useTestServer({ env });

  it('reads every list anew', async () => {
    const member = await t.buildMember();
    const thread = await t.buildThread(member, { title: 'first title' });
    expect(await titleOf(t, member.token, thread.threadId)).toBe('first title');
    await retitleBehindTheForum(t, thread.threadId, 'changed behind');
    expect(await titleOf(t, member.token, thread.threadId)).toBe('changed behind');
  });

  // Not kept, a member who blocked nobody is read the list every such member gets; one who blocked someone, their own.
  it('leaves out the authors a member blocked, and only for that member', async () => {
    const [author, reader, blocker] = [await t.buildMember(), await t.buildMember(), await t.buildMember()];
    const thread = await t.buildThread(author, { title: 'by an author someone blocks' });
    const before = await list(t, reader.token);
    await block(t.current, blocker.id, author.id);
    const blocked = await list(t, blocker.token);
    expect(blocked.pageData.map((item) => item.threadId)).not.toContain(thread.threadId);
    expect(blocked.totalCount).toBe(before.totalCount - 1);
    const read = await list(t, reader.token);
    expect(read.pageData.map((item) => item.threadId)).toContain(thread.threadId);
    expect(read.totalCount).toBe(before.totalCount);
  });
});
