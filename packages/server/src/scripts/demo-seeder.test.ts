import type { CategoryItem, Page, PostItem, ThreadDetail, ThreadItem } from '@luntan/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderContent } from '../modules/content/index.js';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.js';
import { buildThread } from '../test/forum-fixtures.js';
import { DEMO_PASSWORD, seedDemo, type DemoSeedResult } from './demo-seeder.js';

let t: TestServer;
let first: DemoSeedResult;
let second: DemoSeedResult;

const OPTIONS = { threads: 60, posts: 600, users: 12, days: 20, batch: 25 };

/** Every counter recomputed from the rows: the number of rows whose stored counter disagrees. */
const MISMATCHES = {
  threadPostCount: sql`select count(*) as n from threads t where post_count <> (select count(*) from posts p
    where p.thread_id = t.id and p.is_first = 0 and p.is_comment = 0 and p.deleted_at is null)`,
  postReplyCount: sql`select count(*) as n from posts r where reply_count <> (select count(*) from posts c
    where c.reply_post_id = r.id and c.is_comment = 1 and c.deleted_at is null)`,
  threadLikeCount: sql`select count(*) as n from threads t where like_count <> (select count(*) from post_likes l
    where l.post_id = t.first_post_id)`,
  postLikeCount: sql`select count(*) as n from posts p where like_count <> (select count(*) from post_likes l
    where l.post_id = p.id)`,
  favoriteCount: sql`select count(*) as n from threads t where favorite_count <> (select count(*)
    from thread_favorites f where f.thread_id = t.id)`,
  viewCount: sql`select count(*) as n from threads t where view_count <> coalesce((select sum(views)
    from thread_views_daily v where v.thread_id = t.id), 0)`,
  categoryThreadCount: sql`select count(*) as n from categories c where thread_count <> (select count(*) from threads t
    where t.category_id = c.id and t.deleted_at is null and t.is_draft = 0 and t.is_approved = 1)`,
  userThreadCount: sql`select count(*) as n from users u where thread_count <> (select count(*) from threads t
    where t.user_id = u.id and t.deleted_at is null and t.is_draft = 0 and t.is_approved = 1)`,
  userPostCount: sql`select count(*) as n from users u where post_count <> (select count(*) from posts p
    where p.user_id = u.id and p.is_first = 0 and p.deleted_at is null)`,
  userLikedCount: sql`select count(*) as n from users u where liked_count <> (select count(*) from post_likes l
    join posts p on p.id = l.post_id where p.user_id = u.id)`,
  lastPostedAt: sql`select count(*) as n from threads t where last_posted_at <> coalesce((select max(created_at)
    from posts p where p.thread_id = t.id), t.created_at)`,
};

async function mismatches(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, query] of Object.entries(MISMATCHES)) {
    const { rows } = await query.execute(t.server.database.db);
    out[name] = Number((rows[0] as { n: number | string }).n);
  }
  return out;
}

const ok = <T>(res: { Code: number; Message: string; Data: T }): T => {
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data;
};

beforeAll(async () => {
  t = await startTestServer();
  const { db, dialect } = t.server.database;
  first = await seedDemo(db, dialect, { ...OPTIONS, seed: 1 });
  second = await seedDemo(db, dialect, { ...OPTIONS, seed: 2 });
});
afterAll(async () => {
  await t.close();
});

describe('demo seeder', () => {
  it('adds the requested threads and posts, and a second run adds more', async () => {
    expect(first).toMatchObject({ threads: 60, posts: 600, firstThreadId: 1, lastThreadId: 60 });
    expect(second).toMatchObject({ threads: 60, posts: 600, firstThreadId: 61, lastThreadId: 120 });
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from posts`.execute(t.server.database.db);
    expect(Number(rows[0]!.n)).toBe(120 + 1200);
  });

  it('leaves every counter as the API would have', async () => {
    expect(Object.values(await mismatches()).every((n) => n === 0)).toBe(true);
  });

  it('lists as many threads as the categories count, and posts as many replies as each thread counts', async () => {
    const categories = ok(await t.get<CategoryItem[]>('/api/v3/categories'));
    const total = categories.flatMap((c) => [c, ...(c.children ?? [])]).reduce((sum, c) => sum + c.threadCount, 0);
    const page = ok(await t.get<Page<ThreadItem>>('/api/v3/thread.list?perPage=50'));
    expect(page.totalCount).toBe(total);
    expect(total).toBeGreaterThan(100);
    for (const item of page.pageData.slice(0, 10)) {
      const posts = ok(await t.get<Page<PostItem>>(`/api/v3/posts.list?threadId=${item.threadId}`));
      expect(posts.totalCount).toBe(item.postCount);
      const likers = ok(await t.get<Page<unknown>>(`/api/v3/thread.likedusers?threadId=${item.threadId}`));
      expect(likers.totalCount).toBe(item.likeCount);
    }
  });

  it('stores the HTML that the post renderer makes, mentions resolved', async () => {
    const page = ok(await t.get<Page<ThreadItem>>('/api/v3/thread.list?perPage=20'));
    for (const item of page.pageData) {
      const detail = ok(await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${item.threadId}`));
      const html = (await renderContent(t.server.database.db, detail.content.text, item.user.userId)).html;
      expect(detail.content.html).toBe(html);
    }
    const { rows } = await sql<{ content: string; contentHtml: string; userId: number }>`
      select content, content_html, user_id from posts where content like ${'@%'} and is_first = 0`.execute(
      t.server.database.db,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.contentHtml).toBe((await renderContent(t.server.database.db, row.content, row.userId)).html);
      expect(row.contentHtml).toContain('class="mention"');
    }
  });

  it('makes the seeded threads searchable, Chinese words inside sentences included', async () => {
    const page = ok(await t.get<Page<ThreadItem>>('/api/v3/thread.list?perPage=50'));
    const chinese = page.pageData.find((item) => /[\u4e00-\u9fff]{4}/u.test(item.summary))!;
    const word = /[\u4e00-\u9fff]{4}/u.exec(chinese.summary)![0].slice(1, 4);
    const found = ok(
      await t.get<Page<ThreadItem>>(`/api/v3/thread.list?perPage=50&filter[search]=${encodeURIComponent(word)}`),
    );
    expect(found.totalCount).toBeGreaterThan(0);
    const ids = new Set<number>();
    for (let p = 1; p <= found.totalPage; p += 1) {
      const more = ok(
        await t.get<Page<ThreadItem>>(
          `/api/v3/thread.list?perPage=50&page=${p}&filter[search]=${encodeURIComponent(word)}`,
        ),
      );
      for (const item of more.pageData) ids.add(item.threadId);
    }
    expect(ids.has(chinese.threadId)).toBe(true);
  });

  it('indexes every reply and comment that is not hidden, and no other post', async () => {
    const { db, dialect } = t.server.database;
    const indexed = dialect === 'postgres' ? sql`select post_id from post_search` : sql`select rowid from post_search`;
    const { rows } = await sql<{ wrong: number | string; entries: number | string }>`select
      (select count(*) from posts p where case when p.is_first = 0 and p.deleted_at is null and p.is_approved = 1
        then 1 else 0 end <> case when p.id in (${indexed}) then 1 else 0 end) as wrong,
      (select count(*) from post_search) as entries`.execute(db);
    expect(Number(rows[0]!.wrong)).toBe(0);
    expect(Number(rows[0]!.entries)).toBeGreaterThan(OPTIONS.posts);
  });

  it('lets demo users sign in, and the API carries on from the seeded ids and counters', async () => {
    const { rows } = await sql<{
      username: string;
    }>`select username from users where register_ip = ${'127.0.0.1'} order by id limit 1`.execute(t.server.database.db);
    const token = await t.login(rows[0]!.username, DEMO_PASSWORD);
    const admin = await t.login(ADMIN.username, ADMIN.password);
    const created = await buildThread(t, token, { title: '新的主题', text: '种子数据之后的第一个主题' });
    expect(created.threadId).toBe(121);
    const [a, b] = ok(await t.get<Page<ThreadItem>>('/api/v3/thread.list?page=2')).pageData;
    const reply = ok(
      await t.post<{ id: number }>('/api/v3/posts.create', { id: a!.threadId, content: '回复一下' }, token),
    );
    expect(reply.id).toBe(120 + 1200 + 2);
    ok(await t.post('/api/v3/threads/operate', { id: b!.threadId, isDeleted: true }, admin));
    expect(Object.values(await mismatches()).every((n) => n === 0)).toBe(true);
  });
});
