import {
  Code,
  type CategoryItem,
  type Page,
  type PostItem,
  type ReviewPostItem,
  type ReviewThreadItem,
  type ThreadDetail,
  type ThreadItem,
} from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildReply, buildThread } from '../../test/factories.js';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();
let author: Awaited<ReturnType<typeof buildUser>>;
let category: number;

beforeAll(async () => {
  const res = await t.post(
    '/api/stop-words/batch.v2',
    { data: { type: 'stop-words', words: ['待审={MOD}'], overwrite: true } },
    t.admin,
  );
  expect(res.Code).toBe(0);
  author = await buildUser(t);
  category = await buildCategory(t, t.admin);
});

const heldThread = async () => {
  const res = await t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: category, title: '一个待审的主题', content: { text: '正文' } },
    author.token,
  );
  expect(res.Data.isApproved).toBe(false);
  return res.Data.threadId;
};
const heldReply = async (threadId: number, replyId?: number) => {
  const res = await t.post<PostItem>(
    '/api/v3/posts.create',
    { id: threadId, content: '这条待审', ...(replyId ? { replyId } : {}) },
    author.token,
  );
  expect(res.Data.isApproved).toBe(false);
  return res.Data.id;
};
const submit = (body: unknown, token = t.admin) => t.post('/api/backAdmin/manage.submit.review', body, token);
const threadQueue = async (query = '') =>
  (await t.get<Page<ReviewThreadItem>>(`/api/backAdmin/manage.thread.list?perPage=50${query}`, t.admin)).Data;
const postQueue = async (query = '') =>
  (await t.get<Page<ReviewPostItem>>(`/api/backAdmin/manage.posts.list?perPage=50${query}`, t.admin)).Data;
const categoryCount = async () =>
  (await t.get<CategoryItem[]>('/api/v3/categories', t.admin)).Data.find((c) => c.categoryId === category)!.threadCount;
const publicList = async () =>
  (await t.get<Page<ThreadItem>>(`/api/v3/thread.list?filter[categoryids][]=${category}&perPage=50`)).Data.pageData.map(
    (x) => x.threadId,
  );
const userThreads = async () =>
  (await t.get<{ threadCount: number; postCount: number }>(`/api/backAdmin/user?userId=${author.id}`, t.admin)).Data;

describe('the thread queue', () => {
  it('lists held threads with their body; approving puts them in public lists and counts', async () => {
    const id = await heldThread();
    const queue = await threadQueue();
    const item = queue.pageData.find((x) => x.threadId === id)!;
    expect(item).toMatchObject({ isApproved: false, title: '一个待审的主题', content: { text: '正文' } });
    const countBefore = await categoryCount();
    const userBefore = await userThreads();
    expect(await publicList()).not.toContain(id);

    expect(await submit({ type: 'thread', ids: [id], action: 'approve' })).toMatchObject({ Code: 0 });
    expect(await publicList()).toContain(id);
    expect(await categoryCount()).toBe(countBefore + 1);
    expect((await userThreads()).threadCount).toBe(userBefore.threadCount + 1);
    expect((await threadQueue()).pageData.map((x) => x.threadId)).not.toContain(id);
    expect((await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${id}`)).Data.isApproved).toBe(true);
  });

  it('ignores: out of the queue, listed under ignored, still out of sight and uncounted', async () => {
    const [a, b] = [await heldThread(), await heldThread()];
    const countBefore = await categoryCount();
    expect((await submit({ type: 'thread', ids: `${a},${b}`, action: 'ignore' })).Code).toBe(0);
    const pending = (await threadQueue()).pageData.map((x) => x.threadId);
    expect(pending).not.toContain(a);
    const ignored = (await threadQueue('&filter[isApproved]=2')).pageData.map((x) => x.threadId);
    expect(ignored).toEqual(expect.arrayContaining([a, b]));
    expect(await publicList()).not.toContain(a);
    expect(await categoryCount()).toBe(countBefore);
    expect((await t.get(`/api/v3/thread.detail?threadId=${a}`)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    // An ignored thread can still be approved later.
    expect((await submit({ type: 'thread', ids: [b], action: 'approve' })).Code).toBe(0);
    expect(await categoryCount()).toBe(countBefore + 1);
  });

  it('deletes held threads, counters untouched', async () => {
    const id = await heldThread();
    const countBefore = await categoryCount();
    expect((await submit({ type: 'thread', ids: [id], action: 'delete' })).Code).toBe(0);
    expect((await threadQueue()).pageData.map((x) => x.threadId)).not.toContain(id);
    expect((await t.get(`/api/v3/thread.detail?threadId=${id}`, author.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(await categoryCount()).toBe(countBefore);
  });

  it('changes nothing when one id of the batch is not held or does not exist', async () => {
    const held = await heldThread();
    const approved = await buildThread(t, author.token, { categoryId: category });
    expect((await submit({ type: 'thread', ids: [held, approved.threadId], action: 'approve' })).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    expect((await submit({ type: 'thread', ids: [held, 999_999], action: 'approve' })).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    expect((await threadQueue()).pageData.map((x) => x.threadId)).toContain(held);
    expect(await publicList()).not.toContain(held);
  });
});

describe('the reply queue', () => {
  it('approves a held reply and a held comment, counting them in the thread and the reply', async () => {
    const thread = await buildThread(t, author.token, { categoryId: category });
    const open = await buildReply(t, author.token, thread.threadId);
    const reply = await heldReply(thread.threadId);
    const comment = await heldReply(thread.threadId, open.id);
    const queue = await postQueue();
    expect(queue.pageData.find((p) => p.id === reply)).toMatchObject({
      threadId: thread.threadId,
      threadTitle: thread.title,
      isComment: false,
      content: { text: '这条待审' },
    });
    expect(queue.pageData.find((p) => p.id === comment)?.isComment).toBe(true);
    const stranger = await buildUser(t);
    const detail = async () =>
      (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`, stranger.token)).Data;
    const replies = async () =>
      (await t.get<Page<PostItem>>(`/api/v3/posts.list?threadId=${thread.threadId}`, stranger.token)).Data.pageData;
    expect((await detail()).postCount).toBe(1);
    expect((await replies()).map((p) => p.id)).toEqual([open.id]);
    const postsBefore = (await userThreads()).postCount;

    expect((await submit({ type: 'post', ids: `${reply},${comment}`, action: 'approve' })).Code).toBe(0);
    expect((await detail()).postCount).toBe(2);
    const after = await replies();
    expect(after.map((p) => p.id)).toEqual([open.id, reply]);
    expect(after[0]!.replyCount).toBe(1);
    expect(after[0]!.comments.map((c) => c.id)).toEqual([comment]);
    expect((await userThreads()).postCount).toBe(postsBefore + 2);
  });

  it('ignores and deletes held replies without counting them', async () => {
    const thread = await buildThread(t, author.token, { categoryId: category });
    const [a, b] = [await heldReply(thread.threadId), await heldReply(thread.threadId)];
    expect((await submit({ type: 'post', ids: [a], action: 'ignore' })).Code).toBe(0);
    expect((await submit({ type: 'post', ids: [b], action: 'delete' })).Code).toBe(0);
    expect((await postQueue()).pageData.map((p) => p.id)).not.toContain(a);
    expect((await postQueue('&filter[isApproved]=2')).pageData.map((p) => p.id)).toContain(a);
    expect((await postQueue('&filter[isApproved]=2')).pageData.map((p) => p.id)).not.toContain(b);
    const detail = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`, t.admin);
    expect(detail.Data.postCount).toBe(0);
    // An approved reply is not in the queue and cannot be submitted.
    const open = await buildReply(t, author.token, thread.threadId);
    expect((await submit({ type: 'post', ids: [open.id], action: 'delete' })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await submit({ type: 'post', ids: [thread.postId], action: 'approve' })).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
  });
});

describe('bad input', () => {
  it.each([
    [{ type: 'thread', ids: [1] }],
    [{ type: 'thread', ids: [1], action: 'ban' }],
    [{ type: 'user', ids: [1], action: 'approve' }],
    [{ type: 'thread', ids: [], action: 'approve' }],
    [{ type: 'thread', ids: 'a,b', action: 'approve' }],
    [{ type: 'thread', ids: [0], action: 'approve' }],
    [{ type: 'thread', ids: [1.5], action: 'approve' }],
  ])('refuses %j with -4001', async (body) => {
    expect((await submit(body)).Code).toBe(Code.INVALID_PARAMETER);
  });

  it.each(['filter[isApproved]=1', 'perPage=100', 'filter[categoryId]=x'])('refuses the query %s', async (q) => {
    expect((await t.get(`/api/backAdmin/manage.thread.list?${q}`, t.admin)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get(`/api/backAdmin/manage.posts.list?${q}`, t.admin)).Code).toBe(Code.INVALID_PARAMETER);
  });
});

describe('guests and members are refused and nothing changes', () => {
  it.each([
    ['GET', '/api/backAdmin/manage.thread.list'],
    ['GET', '/api/backAdmin/manage.posts.list'],
    ['POST', '/api/backAdmin/manage.submit.review'],
  ])('%s %s', async (method, url) => {
    const id = await heldThread();
    const member = await buildUser(t);
    const body = method === 'POST' ? { type: 'thread', ids: [id], action: 'approve' } : undefined;
    expect((await t.call(method as 'GET', url, { body })).body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.call(method as 'GET', url, { body, token: member.token })).body.Code).toBe(Code.UNAUTHORIZED);
    expect(await publicList()).not.toContain(id);
    expect((await threadQueue()).pageData.map((x) => x.threadId)).toContain(id);
  });
});
