import { Code, type PostItem, type PostVersionItem, type ThreadDetail } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

const history = (postId: number, token?: string) =>
  t.get<PostVersionItem[]>(`/api/v3/posts.history?postId=${postId}`, token);
const detail = async (threadId: number, token?: string) =>
  (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, token)).Data;
const updateThread = async (token: string, body: Record<string, unknown>) => {
  const res = await t.post('/api/v3/thread.update', body, token);
  expect(res.Code, res.Message).toBe(0);
};
const updateReply = async (token: string, id: number, content: string) => {
  const res = await t.post<PostItem>('/api/v3/posts.update', { id, content }, token);
  expect(res.Code, res.Message).toBe(0);
  return res.Data;
};

describe('edit history (posts.history)', () => {
  let author: Awaited<ReturnType<typeof t.buildMember>>;
  let stranger: Awaited<ReturnType<typeof t.buildMember>>;
  let moderator: Awaited<ReturnType<typeof t.buildMember>>;
  let thread: ThreadDetail;

  beforeAll(async () => {
    author = await t.buildMember({ nickname: '原作者' });
    stranger = await t.buildMember();
    moderator = await t.buildMember({ nickname: '版主' });
    await t.buildGroup(['viewThreads', 'thread.viewPosts', 'category1.thread.edit'], [moderator]);
    thread = await t.buildThread(author, { title: '第一版标题', text: '第一版正文' });
  });

  it('a post never edited has no history and is not marked', async () => {
    expect((await detail(thread.threadId)).editedAt).toBeNull();
    const res = await history(thread.postId, author.token);
    expect(res.Code).toBe(0);
    expect(res.Data).toEqual([]);
  });

  it('keeps every version of a thread’s title and text, newest first, with who and when', async () => {
    await updateThread(author.token, {
      threadId: thread.threadId,
      title: '第二版标题',
      content: { text: '第二版正文' },
    });
    // A change of the title alone is a version too.
    await updateThread(moderator.token, { threadId: thread.threadId, title: '第三版标题' });
    // Saving the same again keeps nothing.
    await updateThread(author.token, { threadId: thread.threadId, title: '第三版标题' });

    const after = await detail(thread.threadId);
    expect(after.editedAt).not.toBeNull();
    const res = await history(thread.postId, author.token);
    expect(res.Code, res.Message).toBe(0);
    expect(
      res.Data.map(({ version, nickname, title, content, hidden }) => ({ version, nickname, title, content, hidden })),
    ).toEqual([
      { version: 3, nickname: '版主', title: '第三版标题', content: '第二版正文', hidden: false },
      { version: 2, nickname: '原作者', title: '第二版标题', content: '第二版正文', hidden: false },
      { version: 1, nickname: '原作者', title: '第一版标题', content: '第一版正文', hidden: false },
    ]);
    expect(res.Data[2]!.createdAt).toBe(thread.createdAt);
    expect(res.Data[0]!.createdAt).toBe(after.editedAt);
  });

  it('keeps the versions of a reply, without a title; the list marks it edited', async () => {
    const reply = await t.buildReply(stranger, thread.threadId, { text: '回复原文' });
    expect(reply.editedAt).toBeNull();
    const edited = await updateReply(stranger.token, reply.id, '回复改过了');
    expect(edited.editedAt).not.toBeNull();
    await updateReply(moderator.token, reply.id, '版主改的回复');
    const res = await history(reply.id, stranger.token);
    expect(res.Data.map((v) => [v.version, v.nickname === '版主', v.content, 'title' in v])).toEqual([
      [3, true, '版主改的回复', false],
      [2, false, '回复改过了', false],
      [1, false, '回复原文', false],
    ]);
    const listed = await t.get<{ pageData: PostItem[] }>(`/api/v3/posts.list?threadId=${thread.threadId}`);
    expect(listed.Data.pageData.find((p) => p.id === reply.id)?.editedAt).toBe(res.Data[0]!.createdAt);
  });

  it('is for the author, moderators and administrators: -4002 for anyone else, guests too', async () => {
    expect((await history(thread.postId, moderator.token)).Code).toBe(0);
    expect((await history(thread.postId, t.admin)).Code).toBe(0);
    const refused = await history(thread.postId, stranger.token);
    expect(refused.Code).toBe(Code.UNAUTHORIZED);
    expect(refused.Message).toBe('只有作者、版主和管理员可以查看编辑记录');
    expect((await history(thread.postId)).Code).toBe(Code.UNAUTHORIZED);
    expect((await history(999_999, t.admin)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/v3/posts.history?postId=abc', t.admin)).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('an administrator hides a version: others see that it was, not what it said', async () => {
    const refused = await t.post('/api/v3/posts.history.hide', { postId: thread.postId, version: 1 }, author.token);
    expect(refused.Code).toBe(Code.UNAUTHORIZED);
    const hid = await t.post('/api/v3/posts.history.hide', { postId: thread.postId, version: 1 }, t.admin);
    expect(hid.Code, hid.Message).toBe(0);
    const seen = (await history(thread.postId, author.token)).Data.find((v) => v.version === 1)!;
    expect(seen).toMatchObject({ hidden: true, content: '', title: '' });
    const asAdmin = (await history(thread.postId, t.admin)).Data.find((v) => v.version === 1)!;
    expect(asAdmin).toMatchObject({ hidden: true, content: '第一版正文', title: '第一版标题' });
    expect(
      (await t.post('/api/v3/posts.history.hide', { postId: thread.postId, version: 1, hidden: false }, t.admin)).Code,
    ).toBe(0);
    expect((await history(thread.postId, author.token)).Data.find((v) => v.version === 1)!.content).toBe('第一版正文');
    const missing = await t.post('/api/v3/posts.history.hide', { postId: thread.postId, version: 99 }, t.admin);
    expect(missing.Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('an anonymous thread’s author stays anonymous in its history to a moderator', async () => {
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: '匿名', content: { text: '匿名正文' }, anonymous: 1 },
      t.admin,
    );
    expect(made.Code, made.Message).toBe(0);
    await updateThread(t.admin, { threadId: made.Data.threadId, content: { text: '匿名正文改' } });
    const asModerator = (await history(made.Data.postId, moderator.token)).Data;
    expect(asModerator.map((v) => v.nickname)).toEqual(['匿名用户', '匿名用户']);
    const asAdmin = (await history(made.Data.postId, t.admin)).Data;
    expect(asAdmin[0]!.nickname).not.toBe('匿名用户');
  });

  it('a paid thread’s history is refused to whoever reads only its free part', async () => {
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: '付费', content: { text: '付费正文' }, price: '3.00', freeWords: 0.1 },
      t.admin,
    );
    expect(made.Code, made.Message).toBe(0);
    await updateThread(t.admin, { threadId: made.Data.threadId, content: { text: '付费正文改 SECRET' } });
    const refused = await history(made.Data.postId, stranger.token);
    expect(refused.Code).toBe(Code.UNAUTHORIZED);
    expect(JSON.stringify(refused)).not.toContain('SECRET');
  });
});
