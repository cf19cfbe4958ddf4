import { Code, GroupId, type Page, type ThreadItem, type ThreadRecommend } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { setGroupPermissions } from '../../test/forum-fixtures.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

// A guest's view counts once an hour per address: each view here comes from another one.
let visitor = 0;
const view = async (threadId: number, times: number) => {
  for (let i = 0; i < times; i += 1) {
    visitor += 1;
    await t.call('POST', '/api/v3/view.count', { body: { threadId }, remoteAddress: `10.3.0.${visitor}` });
  }
};

describe('GET /api/v3/thread.recommends', () => {
  it("answers the hot threads as thread.list's sort 3 orders them, in the family's fields", async () => {
    const category = await t.buildCategory();
    const quiet = await t.buildThread(undefined, { categoryId: category, title: 'quiet' });
    const top = await t.buildThread(undefined, { categoryId: category, title: 'top' });
    const second = await t.buildThread(undefined, { categoryId: category, title: 'second' });
    await view(top.threadId, 3);
    await view(second.threadId, 2);
    const member = await t.buildMember();

    const res = await t.get<ThreadRecommend[]>(
      `/api/v3/thread.recommends?perPage=2&filter[categoryids][]=${category}`,
      member.token,
    );
    expect(res.Code).toBe(0);
    expect(res.Data).toEqual([
      { threadId: top.threadId, categoryId: category, title: 'top', viewCount: 3 },
      { threadId: second.threadId, categoryId: category, title: 'second', viewCount: 2 },
    ]);
    const hot = await t.get<Page<ThreadItem>>(
      `/api/v3/thread.list?filter[sort]=3&perPage=3&filter[categoryids][]=${category}`,
    );
    const asGuest = await t.get<ThreadRecommend[]>(`/api/v3/thread.recommends?filter[categoryids]=${category}`);
    expect(asGuest.Data.map((r) => r.threadId)).toEqual(hot.Data.pageData.map((r) => r.threadId));
    expect(asGuest.Data.map((r) => r.threadId)).toContain(quiet.threadId);
  });

  it('refuses bad input, a missing category, and a guest who may view no threads', async () => {
    const bad = await t.get('/api/v3/thread.recommends?perPage=0');
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).not.toBe('');
    expect((await t.get('/api/v3/thread.recommends?filter[categoryids]=x')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/v3/thread.recommends?filter[categoryids]=999999')).Code).toBe(Code.CATEGORY_NOT_FOUND);
    await setGroupPermissions(t.current, t.admin, GroupId.GUEST, []);
    try {
      expect((await t.get('/api/v3/thread.recommends')).Code).toBe(Code.JUMP_TO_LOGIN);
    } finally {
      await setGroupPermissions(t.current, t.admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
    }
  });
});
