import type { Page, ThreadItem } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { block, buildCategory, buildThread, pause } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * The hot list (filter[sort]=3): threads viewed in the last 7 days by their views (equal views: the newer thread
 * first), then every other listed thread by last reply; paged across the two parts.
 */
describe('hot list', () => {
  let t: TestServer;
  let admin: string;
  let alice: Awaited<ReturnType<typeof buildUser>>;
  let bob: Awaited<ReturnType<typeof buildUser>>;
  let category: number;
  const th: Record<string, number> = {};

  // A guest's view counts once an hour per address: each view here comes from another one.
  let visitor = 0;
  const view = async (threadId: number, times: number) => {
    for (let i = 0; i < times; i += 1) {
      visitor += 1;
      await t.call('POST', '/api/v3/view.count', {
        body: { threadId },
        remoteAddress: `10.2.${visitor >> 8}.${visitor & 255}`,
      });
    }
  };
  const hot = async (query: string, token?: string) => {
    const res = await t.get<Page<ThreadItem>>(
      `/api/v3/thread.list?filter[sort]=3&filter[categoryids][]=${category}&${query}`,
      token,
    );
    expect(res.Code).toBe(0);
    return res.Data;
  };

  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.login(ADMIN.username, ADMIN.password);
    alice = await buildUser(t);
    bob = await buildUser(t);
    category = await buildCategory(t, admin);
    for (const name of ['quiet1', 'top', 'quiet2', 'tieOlder', 'tieNewer', 'gone', 'byBob']) {
      const author = name === 'byBob' ? bob : alice;
      th[name] = (await buildThread(t, author.token, { categoryId: category, title: name })).threadId;
      await pause();
    }
    await view(th.top!, 4);
    await view(th.tieOlder!, 2);
    await view(th.tieNewer!, 2);
    await view(th.gone!, 9);
    await view(th.byBob!, 3);
    // Viewed in another category: never part of this category's list.
    const elsewhere = await buildThread(t, alice.token, { title: 'elsewhere' });
    await view(elsewhere.threadId, 20);
    expect((await t.post('/api/v3/thread.delete', { threadId: th.gone! }, admin)).Code).toBe(0);
  });
  afterAll(() => t.close());

  it('ranks viewed threads by views, the newer first on a tie, then the others by last reply', async () => {
    const page = await hot('perPage=50');
    expect(page.pageData.map((d) => d.title)).toEqual(['top', 'byBob', 'tieNewer', 'tieOlder', 'quiet2', 'quiet1']);
    expect(page.totalCount).toBe(6);
  });

  it('pages across the viewed head and the rest without losing or repeating a thread', async () => {
    const titles: string[] = [];
    for (const page of [1, 2, 3, 4]) {
      const data = await hot(`perPage=2&page=${page}`);
      expect(data.totalCount).toBe(6);
      titles.push(...data.pageData.map((d) => d.title));
    }
    expect(titles).toEqual(['top', 'byBob', 'tieNewer', 'tieOlder', 'quiet2', 'quiet1']);
    // A page that starts past the viewed head.
    expect((await hot('perPage=5&page=2')).pageData.map((d) => d.title)).toEqual(['quiet1']);
  });

  it("finds the category's viewed threads behind more than one step of the ranking", async () => {
    // 201 threads elsewhere, each viewed more than any thread here: the ranking's first 200 hold none of ours.
    const crowd: number[] = [];
    for (let i = 0; i < 201; i += 1) crowd.push((await buildThread(t, bob.token, { title: `crowd ${i}` })).threadId);
    const day = new Date().toISOString().slice(0, 10);
    await t.server.database.db
      .insertInto('threadViewsDaily')
      .values(crowd.map((threadId) => ({ threadId, day, views: 100 })))
      .execute();
    const page = await hot('perPage=3');
    expect(page.pageData.map((d) => d.title)).toEqual(['top', 'byBob', 'tieNewer']);
    const home = await t.get<Page<ThreadItem>>('/api/v3/thread.list?filter[sort]=3&perPage=2&page=101');
    expect(home.Data.pageData.map((d) => d.title)).toEqual(['crowd 0', 'elsewhere']);
  });

  it('leaves out the authors the viewer blocked', async () => {
    await block(t, alice.id, bob.id);
    const page = await hot('perPage=50', alice.token);
    expect(page.pageData.map((d) => d.title)).toEqual(['top', 'tieNewer', 'tieOlder', 'quiet2', 'quiet1']);
  });
});
