import { Code, GroupId } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { setGroupPermissions } from '../../test/forum-fixtures.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

type Shared = { threadId: number; shareCount: number };
const share = (threadId: unknown, token?: string) => t.post<Shared>('/api/v3/thread.share', { threadId }, token);
const stored = async (threadId: number) =>
  (
    await t.server.database.db
      .selectFrom('threads')
      .select('shareCount')
      .where('id', '=', threadId)
      .executeTakeFirstOrThrow()
  ).shareCount;

describe('POST /api/v3/thread.share', () => {
  it('counts each share of a thread, by a member or a guest', async () => {
    const thread = await t.buildThread();
    const member = await t.buildMember();
    expect(await stored(thread.threadId)).toBe(0);
    const first = await share(thread.threadId, member.token);
    expect(first.Code).toBe(0);
    expect(first.Data).toEqual({ threadId: thread.threadId, shareCount: 1 });
    expect((await share(thread.threadId)).Data).toEqual({ threadId: thread.threadId, shareCount: 2 });
    expect(await stored(thread.threadId)).toBe(2);
  });

  it('refuses bad input, a missing or unpublished thread, and a viewer who may not read it', async () => {
    const bad = await share('x');
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).not.toBe('');
    expect((await share(999999)).Code).toBe(Code.RESOURCE_NOT_FOUND);

    const author = await t.buildMember();
    const draft = await t.post<{ threadId: number }>(
      '/api/v3/thread.create',
      { categoryId: 1, title: 'draft', content: { text: 'x' }, draft: true },
      author.token,
    );
    expect(draft.Code).toBe(0);
    expect((await share(draft.Data.threadId, author.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(await stored(draft.Data.threadId)).toBe(0);

    const thread = await t.buildThread();
    await setGroupPermissions(t.current, t.admin, GroupId.GUEST, ['viewThreads']);
    try {
      expect((await share(thread.threadId)).Code).toBe(Code.JUMP_TO_LOGIN);
    } finally {
      await setGroupPermissions(t.current, t.admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
    }
    expect(await stored(thread.threadId)).toBe(0);
  });
});
