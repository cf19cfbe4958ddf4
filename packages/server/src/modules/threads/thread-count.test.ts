import type { Page, ThreadItem } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { block, buildCategory, buildThread } from '../../test/forum-fixtures.js';

/**
 * thread.list's totalCount and paging as threads come and go. The plain lists count from the category counters
 * (see countThreads): these tests hold that answer to a count of what the list really shows.
 */

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;
let alice: User;
let bob: User;
let carol: User;
let parent: number;
let child: number;

const page = async (query: string, token?: string) => {
  const res = await t.get<Page<ThreadItem>>(`/api/v3/thread.list?${query}`, token);
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data;
};

/** Every thread the list shows, read page by page, and the totalCount it announced. */
async function everything(query: string, token?: string): Promise<{ ids: number[]; totalCount: number }> {
  const first = await page(`${query}&perPage=3&page=1`, token);
  const ids = first.pageData.map((d) => d.threadId);
  for (let p = 2; p <= first.totalPage; p += 1) {
    ids.push(...(await page(`${query}&perPage=3&page=${p}`, token)).pageData.map((d) => d.threadId));
  }
  return { ids, totalCount: first.totalCount };
}

async function expectCountsRight(token?: string) {
  for (const query of ['', `filter[categoryids][]=${parent}`, `filter[categoryids][]=${child}`]) {
    const { ids, totalCount } = await everything(query, token);
    expect(new Set(ids).size).toBe(ids.length);
    expect(totalCount).toBe(ids.length);
  }
}

const operate = async (body: Record<string, unknown>) => {
  const res = await t.post('/api/v3/threads/operate', body, admin);
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
};

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  alice = await buildUser(t);
  bob = await buildUser(t);
  carol = await buildUser(t);
  parent = await buildCategory(t, admin, { name: 'count parent' });
  child = await buildCategory(t, admin, { name: 'count child', parentId: parent });
  for (const [user, categoryId] of [
    [alice, parent],
    [bob, child],
    [alice, child],
    [bob, 1],
    [alice, 1],
    [bob, parent],
    [alice, parent],
  ] as const) {
    await buildThread(t, user.token, { categoryId });
  }
});
afterAll(async () => {
  await t.close();
});

describe('thread.list totalCount', () => {
  it('matches the threads listed, for guests and members, in every category', async () => {
    await expectCountsRight();
    await expectCountsRight(carol.token);
    expect((await everything('')).totalCount).toBe(7);
  });

  it('leaves out drafts, deleted threads, and counts restored and moved ones', async () => {
    await buildThread(t, alice.token, { categoryId: parent, draft: true });
    const gone = await buildThread(t, bob.token, { categoryId: child });
    await operate({ id: gone.threadId, isDeleted: true });
    await expectCountsRight();
    expect((await everything('')).totalCount).toBe(7);
    await operate({ id: gone.threadId, isDeleted: false });
    const moved = await buildThread(t, alice.token, { categoryId: 1 });
    await operate({ id: moved.threadId, categoriesId: child });
    await expectCountsRight();
    expect((await everything('')).totalCount).toBe(9);
  });

  it('leaves out the threads of authors the viewer blocked', async () => {
    await block(t, carol.id, bob.id);
    const bobs = (await everything('', admin)).ids.length - (await everything('', carol.token)).ids.length;
    expect(bobs).toBe(4);
    await expectCountsRight(carol.token);
  });

  it('pages through sticky threads and then the others without gaps or repeats', async () => {
    const { ids } = await everything('');
    await operate({ id: ids[4], isSticky: true });
    await operate({ id: ids[7], isSticky: true });
    const after = await everything('');
    expect(after.ids.slice(0, 2).sort()).toEqual([ids[4], ids[7]].sort());
    expect([...after.ids].sort()).toEqual([...ids].sort());
    expect(after.totalCount).toBe(ids.length);
    // Pages of two: the first is the sticky pair, the second starts the others.
    const second = await page('perPage=2&page=2');
    expect(second.pageData.map((d) => d.threadId)).toEqual(after.ids.slice(2, 4));
  });
});
