import {
  ANONYMOUS_USER_ID,
  Code,
  GroupId,
  type NotificationItem,
  type Page,
  type PostItem,
  type ThreadDetail,
  type ThreadItem,
} from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { up as giveTopicsToNobody } from '../../db/migrations/2026120101-anonymous-topic-creators.js';
import { block, memberPermissions, setGroupPermissions } from '../../test/factories.js';
import { useTestServer } from '../../test/fixture.js';

/*
 * Anonymous threads (thread.allowAnonymous, granted per category): others never see who posted one, anywhere in an
 * answer (lists, searches, the thread, its first post, the author's own list and counts, notices, the rendered page);
 * the author and administrators do.
 */

const t = useTestServer();
type Member = Awaited<ReturnType<typeof t.buildMember>>;

const NICK = `Hidden${process.pid}`;
const WORD = `anonword${process.pid}`;
let category: number;
let otherCategory: number;
let author: Member;
let plain: Member;
let mentioned: Member;
let blocker: Member;
let thread: ThreadDetail;

/** Every `userId` and `id` of a user object anywhere in an answer, and whether the author's nickname occurs in it. */
function traces(data: unknown): { ids: number[]; named: boolean } {
  const ids: number[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'userId' && typeof x === 'number') ids.push(x);
        if (k === 'fromUser' && x && typeof x === 'object') ids.push((x as { id: number }).id);
        walk(x);
      }
    }
  };
  walk(data);
  return { ids, named: JSON.stringify(data).includes(NICK) };
}

const expectNoTrace = (data: unknown) => {
  const found = traces(data);
  expect(found.ids).not.toContain(author.id);
  expect(found.named).toBe(false);
};

const create = (token: string, body: Record<string, unknown>) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: category, title: `Anonymous ${WORD}`, content: { text: `Body ${WORD}` }, ...body },
    token,
  );

const list = (query: string, token?: string) => t.get<Page<ThreadItem>>(`/api/v3/thread.list?${query}`, token);
const detail = (token?: string) => t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`, token);
const inList = (page: Page<ThreadItem>) => page.pageData.find((i) => i.threadId === thread.threadId);

beforeAll(async () => {
  // Members hold thread.allowAnonymous on a fresh site (as the family's do): here only one category's group does.
  const member = await memberPermissions(t.current, t.admin);
  await setGroupPermissions(
    t.current,
    t.admin,
    GroupId.MEMBER,
    member.filter((p) => p !== 'thread.allowAnonymous'),
  );
  category = await t.buildCategory();
  otherCategory = await t.buildCategory();
  author = await t.buildMember({ nickname: NICK });
  plain = await t.buildMember();
  mentioned = await t.buildMember();
  blocker = await t.buildMember();
  await t.buildGroup(
    [
      'viewThreads',
      'thread.viewPosts',
      'createThread',
      'thread.reply',
      'thread.likePosts',
      'thread.editOwnThread',
      'user.view',
      `category${category}.thread.allowAnonymous`,
    ],
    [author],
  );
  const made = await create(author.token, {
    anonymous: 1,
    content: { text: `Body ${WORD} for @${mentioned.username}` },
  });
  expect(made.Code).toBe(0);
  thread = made.Data;
  await block(t.current, blocker.id, author.id);
});

describe('posting anonymously', () => {
  it('is allowed where the group holds thread.allowAnonymous; the author gets the real user and the mark', () => {
    expect(thread.isAnonymous).toBe(true);
    expect(thread.user).toMatchObject({ userId: author.id, nickname: NICK });
  });

  it('is refused (-4002, said on the field) without the permission, and stores nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.server.database.db
            .selectFrom('threads')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const refused = await create(plain.token, { anonymous: true });
    expect(refused.Code).toBe(Code.UNAUTHORIZED);
    expect(refused.Message).toContain('匿名');
    // Granted in one category only: not in another.
    const elsewhere = await create(author.token, { anonymous: 1, categoryId: otherCategory });
    expect(elsewhere.Code).toBe(Code.UNAUTHORIZED);
    expect(await count()).toBe(before);
    // Named threads need nothing more, and anonymous: 0 is a named thread.
    const named = await create(plain.token, { anonymous: 0 });
    expect(named.Code).toBe(0);
    expect(named.Data.isAnonymous).toBe(false);
  });

  it('refuses a guest with -3001 as any thread.create', async () => {
    expect((await create('', { anonymous: 1 })).Code).toBe(Code.JUMP_TO_LOGIN);
  });
});

describe('what others see', () => {
  it('the anonymous user in thread.detail, the lists, a category and a search, for members and guests', async () => {
    for (const token of [plain.token, undefined]) {
      const seen = await detail(token);
      expect(seen.Code).toBe(0);
      expect(seen.Data.isAnonymous).toBe(true);
      expect(seen.Data.user).toEqual({ userId: ANONYMOUS_USER_ID, nickname: '匿名用户', avatar: '' });
      expectNoTrace(seen.Data);
      for (const query of [
        'perPage=50',
        `perPage=50&filter[categoryids][]=${category}`,
        'perPage=50&filter[sort]=3',
        `perPage=50&filter[search]=${WORD}`,
      ]) {
        const res = await list(query, token);
        expect(res.Code).toBe(0);
        const item = inList(res.Data);
        expect(item, query).toBeDefined();
        expect(item!.matchedPost ?? null).toBeNull();
        expectNoTrace(res.Data);
      }
    }
  });

  it('the first post as posts.update answers it (a like), and the likes list', async () => {
    const liked = await t.post<PostItem>('/api/v3/posts.update', { id: thread.postId, isLiked: true }, plain.token);
    expect(liked.Code).toBe(0);
    expectNoTrace(liked.Data);
    const likers = await t.get(`/api/v3/thread.likedusers?threadId=${thread.threadId}`, plain.token);
    expectNoTrace(likers.Data);
  });

  it('an order rewarding it names no payee (order.create, order.detail, order.list)', async () => {
    const made = await t.post<{ orderSn: string; payeeId: number | null }>(
      '/api/v3/order.create',
      { type: 2, threadId: thread.threadId, rewardAmount: '1.00' },
      plain.token,
    );
    expect(made.Code).toBe(0);
    expect(made.Data.payeeId).toBeNull();
    const read = await t.get(`/api/v3/order.detail?orderSn=${made.Data.orderSn}`, plain.token);
    expect(read.Code).toBe(0);
    expectNoTrace(read.Data);
    expect(JSON.stringify(read.Data)).not.toContain(`"payeeId":${author.id}`);
    const mine = await t.get('/api/v3/order.list', plain.token);
    expect(mine.Code).toBe(0);
    expect(JSON.stringify(mine.Data)).not.toContain(`"payeeId":${author.id}`);
  });

  it('in English as Anonymous', async () => {
    const res = await t.call<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${thread.threadId}`, {
      headers: { cookie: 'locale=en' },
    });
    expect(res.body.Data.user.nickname).toBe('Anonymous');
  });

  it('not in the author’s list of threads, nor in their counts; the author and administrators see it there', async () => {
    const byAuthor = `perPage=50&filter[complex]=5&filter[toUserId]=${author.id}`;
    for (const token of [plain.token, undefined]) {
      const res = await list(byAuthor, token);
      expect(res.Code).toBe(0);
      expect(inList(res.Data)).toBeUndefined();
      expect(res.Data.totalCount).toBe(0);
    }
    expect(inList((await list(byAuthor, author.token)).Data)?.user.userId).toBe(author.id);
    expect(inList((await list(byAuthor, t.admin)).Data)?.user.userId).toBe(author.id);
    const profile = await t.get<{ threadCount: number; likedCount: number }>(
      `/api/v3/user?userId=${author.id}`,
      plain.token,
    );
    expect(profile.Code).toBe(0);
    expect(profile.Data.threadCount).toBe(0);
    expect(profile.Data.likedCount).toBe(0);
  });

  it('a member who blocked the author still sees the thread (leaving it out would name the author)', async () => {
    const res = await list('perPage=50', blocker.token);
    expect(inList(res.Data)).toBeDefined();
    expectNoTrace(res.Data);
  });

  it('the author and administrators see the real author, marked anonymous', async () => {
    for (const token of [author.token, t.admin]) {
      const seen = await detail(token);
      expect(seen.Data.isAnonymous).toBe(true);
      expect(seen.Data.user).toMatchObject({ userId: author.id, nickname: NICK });
      expect(inList((await list('perPage=50', token)).Data)?.user.userId).toBe(author.id);
    }
  });

  it('the mention notice comes from nobody: no fromUser, no name', async () => {
    const res = await t.get<Page<NotificationItem>>('/api/v3/notification?perPage=50', mentioned.token);
    expect(res.Code).toBe(0);
    const notice = res.Data.pageData.find((n) => n.threadId === thread.threadId);
    expect(notice).toBeDefined();
    expect(notice!.fromUser).toBeNull();
    expectNoTrace(res.Data);
  });

  it('the rendered thread page and its dehydrated data name nobody', async () => {
    const page = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/thread/${thread.threadId}`, headers });
    const pages = [await page(), await page({ authorization: `Bearer ${plain.token}` })];
    // Without the web build (npm run build) the pages are the "not built" notice: nothing more to see then.
    if (pages[0]!.statusCode === 503) return;
    for (const res of pages) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(WORD);
      expect(res.body).toContain('匿名用户');
      expect(res.body).not.toContain(NICK);
      expect(res.body).not.toContain(`"userId":${author.id},`);
      expect(res.body).not.toContain(`/user/${author.id}"`);
    }
    // A member's page is rendered for their groups and shared with the groups' other members: even the author's copy
    // names nobody (their own view arrives after hydration, from thread.detail).
    const own = await page({ authorization: `Bearer ${author.token}` });
    expect(own.body).not.toContain(NICK);
  });
  it('the author’s replies in their own thread carry their name (only the thread is anonymous)', async () => {
    const reply = await t.buildReply(author, thread.threadId, { text: 'a named reply' });
    expect(reply.user.userId).toBe(author.id);
    const posts = await t.get<Page<PostItem>>(`/api/v3/posts.list?threadId=${thread.threadId}`, plain.token);
    expect(posts.Data.pageData.find((p) => p.id === reply.id)?.user.userId).toBe(author.id);
    // The thread itself still names nobody.
    expectNoTrace((await detail(plain.token)).Data);
  });
});

describe('the topics it names', () => {
  type Topic = { topicId: number; userId: number; nickname: string };
  const topic = async (name: string, token?: string): Promise<Topic | undefined> => {
    const res = await t.get<{ pageData: Topic[] }>(
      `/api/v3/topics.list?filter[content]=${encodeURIComponent(name)}`,
      token,
    );
    expect(res.Code).toBe(0);
    return res.Data.pageData.find((item) => item.nickname !== undefined && item.topicId > 0);
  };
  const expectMadeByNobody = async (name: string) => {
    for (const token of [plain.token, undefined]) {
      const seen = await topic(name, token);
      expect(seen, name).toBeDefined();
      expect(seen).toMatchObject({ userId: ANONYMOUS_USER_ID, nickname: '匿名用户' });
      expectNoTrace(seen);
    }
  };

  it('are made by nobody: made with the thread, by an edit of the thread, and by an edit of its first post', async () => {
    const made = await create(author.token, { anonymous: 1, content: { text: `Body #made${WORD}#` } });
    expect(made.Code).toBe(0);
    await expectMadeByNobody(`made${WORD}`);
    const edited = await t.post(
      '/api/v3/thread.update',
      { threadId: made.Data.threadId, content: { text: `Body #edited${WORD}#` } },
      author.token,
    );
    expect(edited.Code).toBe(0);
    await expectMadeByNobody(`edited${WORD}`);
    const post = await t.post(
      '/api/v3/posts.update',
      { id: made.Data.postId, content: `Body #post${WORD}#` },
      author.token,
    );
    expect(post.Code).toBe(0);
    await expectMadeByNobody(`post${WORD}`);
  });

  it('a named thread’s and a reply’s topics name their writer', async () => {
    const named = await create(author.token, { content: { text: `Body #named${WORD}#` } });
    expect(named.Code).toBe(0);
    expect(await topic(`named${WORD}`)).toMatchObject({ userId: author.id, nickname: NICK });
    await t.buildReply(author, thread.threadId, { text: `a reply #reply${WORD}#` });
    expect(await topic(`reply${WORD}`)).toMatchObject({ userId: author.id, nickname: NICK });
  });

  it('made before (named by the author): migration 2026120101 gives them to nobody, and no other topic', async () => {
    const made = await create(author.token, { anonymous: 1, content: { text: `Body #old${WORD}#` } });
    expect(made.Code).toBe(0);
    const db = t.app.ctx.db;
    const old = (await topic(`old${WORD}`))!.topicId;
    const named = (await topic(`named${WORD}`))!.topicId;
    // As the topic was written before the fix: its maker the anonymous thread's author.
    await db.updateTable('topics').set({ userId: author.id }).where('id', '=', old).execute();
    await giveTopicsToNobody(db as unknown as Kysely<unknown>);
    await expectMadeByNobody(`old${WORD}`);
    const kept = await db.selectFrom('topics').select('userId').where('id', '=', named).executeTakeFirstOrThrow();
    expect(kept.userId).toBe(author.id);
  });
});
