import {
  Code,
  GroupId,
  type CategoryItem,
  type LikedUser,
  type Page,
  type ThreadDetail,
  type ThreadItem,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import {
  buildCategory,
  buildGroup,
  buildThread,
  memberPermissions,
  setGroupPermissions,
} from '../../test/forum-fixtures.js';

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;
let alice: User;
let bob: User;
let mod: User;
let c2: number;
let memberPerms: string[];

const MODERATOR_PERMISSIONS = [
  'viewThreads',
  'thread.viewPosts',
  'createThread',
  'thread.reply',
  'thread.likePosts',
  'thread.favorite',
  'thread.edit',
  'thread.hide',
  'thread.hidePosts',
  'thread.essence',
  'thread.sticky',
];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  alice = await buildUser(t);
  bob = await buildUser(t);
  mod = await buildUser(t);
  await buildGroup(t, admin, MODERATOR_PERMISSIONS, [mod.id]);
  c2 = await buildCategory(t, admin, { name: '第二分类' });
  memberPerms = await memberPermissions(t, admin);
});
afterAll(async () => {
  await t.close();
});

/** The attribute names of every tag in some HTML (values may hold anything: they are quoted and escaped). */
function attributeNames(html: string): string[] {
  const names: string[] = [];
  for (const tag of html.matchAll(/<[a-z][a-z0-9]*((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>/gi)) {
    for (const attr of tag[1]!.matchAll(/\s+([\w-]+)(?:="[^"]*")?/g)) names.push(attr[1]!.toLowerCase());
  }
  return names;
}

const detail = (id: number, token?: string) => t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${id}`, token);
const threadCount = async (categoryId: number) => {
  const list = await t.get<CategoryItem[]>('/api/v3/categories', admin);
  const all = list.Data.flatMap((c) => [c, ...c.children]);
  return all.find((c) => c.categoryId === categoryId)?.threadCount;
};
const userThreadCount = async (id: number) =>
  (await t.server.database.db.selectFrom('users').select('threadCount').where('id', '=', id).executeTakeFirstOrThrow())
    .threadCount;

describe('thread.create', () => {
  it('creates a thread and answers it, Data.threadId being its id', async () => {
    const before = await threadCount(1);
    const res = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: '  第一个主题  ', content: { text: '**你好**，世界' } },
      alice.token,
    );
    expect(res.Code).toBe(0);
    expect(res.Data).toMatchObject({
      title: '第一个主题',
      categoryId: 1,
      user: { userId: alice.id },
      content: { text: '**你好**，世界', html: '<p><strong>你好</strong>，世界</p>\n' },
      summary: '你好，世界',
      isDraft: false,
      isApproved: true,
      postCount: 0,
      likeCount: 0,
    });
    expect(res.Data.threadId).toBeGreaterThan(0);
    expect(res.Data.postId).toBeGreaterThan(0);
    expect(res.Data.ability).toMatchObject({ canEdit: true, canDelete: true, canSticky: false, canEssence: false });
    expect(await threadCount(1)).toBe(before! + 1);
    expect(await userThreadCount(alice.id)).toBeGreaterThan(0);
  });

  it.each([
    ['an empty title', { categoryId: 1, title: '   ', content: { text: 'x' } }, 'title'],
    ['a title of 101 characters', { categoryId: 1, title: '题'.repeat(101), content: { text: 'x' } }, 'title'],
    ['no content', { categoryId: 1, title: 'x' }, 'content'],
    ['empty content', { categoryId: 1, title: 'x', content: { text: ' \n ' } }, 'content.text'],
    ['content over 50,000', { categoryId: 1, title: 'x', content: { text: '字'.repeat(50_001) } }, 'content.text'],
    ['a string categoryId', { categoryId: '1', title: 'x', content: { text: 'x' } }, 'categoryId'],
    ['an id too large', { categoryId: 2 ** 31, title: 'x', content: { text: 'x' } }, 'categoryId'],
    ['draft not a flag', { categoryId: 1, title: 'x', content: { text: 'x' }, draft: 'yes' }, 'draft'],
  ])('refuses %s with -4001 naming the field', async (_name, body, field) => {
    const res = await t.post('/api/v3/thread.create', body, alice.token);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
  });

  it('takes a title of exactly 100 characters and a body of exactly 50,000', async () => {
    const res = await t.post(
      '/api/v3/thread.create',
      { categoryId: 1, title: '题'.repeat(100), content: { text: '字'.repeat(50_000) } },
      alice.token,
    );
    expect(res.Code).toBe(0);
  });

  it('answers -7076 for a missing category, -3001 for a guest, -4002 without createThread', async () => {
    const body = { categoryId: 999, title: 'x', content: { text: 'x' } };
    expect((await t.post('/api/v3/thread.create', body, alice.token)).Code).toBe(Code.CATEGORY_NOT_FOUND);
    expect((await t.post('/api/v3/thread.create', { ...body, categoryId: 1 })).Code).toBe(Code.JUMP_TO_LOGIN);
    // A guest is refused before the body is read.
    expect((await t.post('/api/v3/thread.create', { nonsense: true })).Code).toBe(Code.JUMP_TO_LOGIN);

    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => p !== 'createThread'),
    );
    try {
      expect((await t.post('/api/v3/thread.create', { ...body, categoryId: 1 }, bob.token)).Code).toBe(
        Code.UNAUTHORIZED,
      );
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });

  it('honours a grant in one category only', async () => {
    const scoped = memberPerms.filter((p) => p !== 'createThread').concat(`category${c2}.createThread`);
    await setGroupPermissions(t, admin, GroupId.MEMBER, scoped);
    try {
      const body = { title: 'scoped', content: { text: 'x' } };
      expect((await t.post('/api/v3/thread.create', { ...body, categoryId: 1 }, bob.token)).Code).toBe(
        Code.UNAUTHORIZED,
      );
      expect((await t.post('/api/v3/thread.create', { ...body, categoryId: c2 }, bob.token)).Code).toBe(0);
      const cats = await t.get<CategoryItem[]>('/api/v3/categories', bob.token);
      const flags = Object.fromEntries(cats.Data.map((c) => [c.categoryId, c.canCreateThread]));
      expect(flags).toMatchObject({ 1: false, [c2]: true });
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });
});

describe('thread.detail', () => {
  it('answers the thread to a guest, -4004 for a missing one, -4001 for a bad id', async () => {
    const th = await buildThread(t, alice.token, { text: 'hello *there*' });
    const res = await detail(th.threadId);
    expect(res.Code).toBe(0);
    expect(res.Data.content.html).toBe('<p>hello <em>there</em></p>\n');
    expect(res.Data.ability).toMatchObject({ canViewPosts: true, canReply: false, canEdit: false });
    expect((await detail(987654)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/v3/thread.detail?threadId=abc')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/v3/thread.detail')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/v3/thread.detail?threadId=99999999999')).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('needs thread.viewPosts: a guest is sent to log in, a member is refused', async () => {
    const th = await buildThread(t, alice.token);
    await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads']);
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => p !== 'thread.viewPosts'),
    );
    try {
      expect((await detail(th.threadId)).Code).toBe(Code.JUMP_TO_LOGIN);
      expect((await detail(th.threadId, bob.token)).Code).toBe(Code.UNAUTHORIZED);
      expect((await detail(th.threadId, admin)).Code).toBe(0);
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });

  it('keeps XSS payloads out of the rendered HTML and keeps titles as text', async () => {
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '[click](javascript:alert(1))',
      '[click](JaVaScRiPt:alert(1))',
      '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '![x](javascript:alert(1))',
      '<iframe src="https://evil.example"></iframe>',
      '<a href="#" style="color:red" onclick="alert(1)">x</a>',
      '<svg onload=alert(1)>',
      '[x](https://ok.example "t\\" onmouseover=\\"alert(1)")',
    ];
    const th = await buildThread(t, alice.token, { title: '<script>alert("t")</script>', text: payloads.join('\n\n') });
    const { Data } = await detail(th.threadId);
    const html = Data.content.html;
    expect(html).not.toMatch(/<script|<iframe|<svg|href="\s*javascript:|href="data:|src="javascript:/i);
    expect(attributeNames(html).filter((a) => a.startsWith('on') || a === 'style')).toEqual([]);
    expect(html).toContain('&lt;script&gt;');
    expect(Data.title).toBe('<script>alert("t")</script>');
    expect(Data.summary).not.toMatch(/<a |<p>/);
  });

  it('links @username mentions to their users and lists them', async () => {
    const carol = await buildUser(t, { username: `张三${Date.now() % 10000}` });
    const th = await buildThread(t, alice.token, { text: `你好@${carol.username}，还有 @nobody_here 和 a@b.com` });
    const { Data } = await detail(th.threadId);
    expect(Data.content.html).toContain(`<a href="/user/${carol.id}" class="mention" data-user-id="${carol.id}">@`);
    expect(Data.mentions.map((m) => m.userId)).toEqual([carol.id]);
    expect(Data.content.html).not.toContain('data-user-id="0"');
  });
});

describe('thread.update', () => {
  it('lets the author, a moderator and the administrator edit; others are refused', async () => {
    const th = await buildThread(t, alice.token);
    const edit = (token: string | undefined, title: string) =>
      t.post<ThreadDetail>(
        '/api/v3/thread.update',
        { threadId: th.threadId, title, content: { text: `# ${title}` } },
        token,
      );
    const mine = await edit(alice.token, 'by alice');
    expect(mine.Code).toBe(0);
    expect(mine.Data.content.html).toBe('<h1>by alice</h1>\n');
    expect(mine.Data.summary).toBe('by alice');
    expect((await edit(bob.token, 'by bob')).Code).toBe(Code.UNAUTHORIZED);
    expect((await edit(undefined, 'by guest')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await edit(mod.token, 'by mod')).Code).toBe(0);
    expect((await edit(admin, 'by admin')).Code).toBe(0);
    expect((await detail(th.threadId)).Data.title).toBe('by admin');
  });

  it('refuses bad input, missing threads and categories', async () => {
    const th = await buildThread(t, alice.token);
    const up = (body: object) => t.post('/api/v3/thread.update', body, alice.token);
    expect((await up({ threadId: th.threadId })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await up({ threadId: th.threadId, title: '' })).Data).toMatchObject({ field: 'title' });
    expect((await up({ threadId: 999999, title: 'x' })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await up({ threadId: th.threadId, categoryId: 999 })).Code).toBe(Code.CATEGORY_NOT_FOUND);
    expect((await up({ threadId: th.threadId, draft: true })).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('moves a thread to another category and keeps both counters right', async () => {
    const th = await buildThread(t, alice.token);
    const [one, two] = [await threadCount(1), await threadCount(c2)];
    const res = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: th.threadId, categoryId: c2 },
      alice.token,
    );
    expect(res.Data.categoryId).toBe(c2);
    expect(await threadCount(1)).toBe(one! - 1);
    expect(await threadCount(c2)).toBe(two! + 1);
  });
});

describe('drafts', () => {
  it('keeps a draft to its author until it is published', async () => {
    const before = await threadCount(1);
    const draft = await buildThread(t, alice.token, { title: '', text: '', draft: true });
    expect(draft.isDraft).toBe(true);
    expect(await threadCount(1)).toBe(before);
    expect((await detail(draft.threadId, bob.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await detail(draft.threadId, alice.token)).Code).toBe(0);
    const mine = await t.get<Page<ThreadItem>>('/api/v3/thread.list?filter[complex]=1', alice.token);
    expect(mine.Data.pageData.map((d) => d.threadId)).toContain(draft.threadId);
    expect((await t.get('/api/v3/thread.list?filter[complex]=1')).Code).toBe(Code.JUMP_TO_LOGIN);

    const empty = await t.post('/api/v3/thread.update', { threadId: draft.threadId, draft: false }, alice.token);
    expect(empty.Data).toMatchObject({ field: 'title' });
    const published = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: draft.threadId, title: '发布了', content: { text: '正文' }, draft: false },
      alice.token,
    );
    expect(published.Data.isDraft).toBe(false);
    expect(await threadCount(1)).toBe(before! + 1);
    expect((await detail(draft.threadId, bob.token)).Code).toBe(0);
  });
});

describe('thread.delete', () => {
  it('lets the author and a moderator delete; others are refused; counters follow', async () => {
    const a = await buildThread(t, alice.token);
    const b = await buildThread(t, alice.token);
    const before = await threadCount(1);
    const del = (id: number, token?: string) => t.post('/api/v3/thread.delete', { threadId: id }, token);
    expect((await del(a.threadId, bob.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await del(a.threadId)).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await del(a.threadId, alice.token)).Code).toBe(0);
    expect((await del(b.threadId, mod.token)).Code).toBe(0);
    expect(await threadCount(1)).toBe(before! - 2);
    expect((await detail(a.threadId)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await del(a.threadId, alice.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await del(424242, alice.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.post('/api/v3/thread.delete', { threadId: 'x' }, alice.token)).Code).toBe(Code.INVALID_PARAMETER);
  });
});

describe('threads/operate', () => {
  const op = (body: object, token?: string) => t.post<ThreadItem>('/api/v3/threads/operate', body, token);

  it('sticky and essence need their permissions', async () => {
    const th = await buildThread(t, alice.token);
    expect((await op({ id: th.threadId, isSticky: true }, alice.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await op({ id: th.threadId, isEssence: 1 }, bob.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await op({ id: th.threadId, isSticky: true })).Code).toBe(Code.JUMP_TO_LOGIN);
    const res = await op({ id: th.threadId, isSticky: true, isEssence: true }, mod.token);
    expect(res.Data).toMatchObject({ isSticky: true, isEssence: true });
    expect((await op({ id: th.threadId, isSticky: 0 }, admin)).Data.isSticky).toBe(false);
  });

  it('favourites once per user, and counts', async () => {
    const th = await buildThread(t, alice.token);
    await Promise.all([
      op({ id: th.threadId, isFavorite: true }, bob.token),
      op({ id: th.threadId, isFavorite: true }, bob.token),
    ]);
    const res = await op({ id: th.threadId, isFavorite: true }, mod.token);
    expect(res.Data).toMatchObject({ isFavorite: true, favoriteCount: 2 });
    const undo = await op({ id: th.threadId, isFavorite: false }, bob.token);
    expect(undo.Data).toMatchObject({ isFavorite: false, favoriteCount: 1 });
    const favs = await t.get<Page<ThreadItem>>('/api/v3/thread.list?filter[complex]=3', mod.token);
    expect(favs.Data.pageData.map((d) => d.threadId)).toEqual([th.threadId]);
  });

  it('deletes and restores: the author deletes their own, only a moderator restores', async () => {
    const th = await buildThread(t, alice.token);
    expect((await op({ id: th.threadId, isDeleted: true }, bob.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await op({ id: th.threadId, isDeleted: true }, alice.token)).Code).toBe(0);
    expect((await op({ id: th.threadId, isDeleted: false }, alice.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await op({ id: th.threadId, isSticky: true }, mod.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    const before = await threadCount(1);
    expect((await op({ id: th.threadId, isDeleted: false }, mod.token)).Code).toBe(0);
    expect(await threadCount(1)).toBe(before! + 1);
    expect((await detail(th.threadId)).Code).toBe(0);
  });

  it('moves with categoriesId (thread.edit), -7076 for a missing category', async () => {
    const th = await buildThread(t, alice.token);
    expect((await op({ id: th.threadId, categoriesId: c2 }, alice.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await op({ id: th.threadId, categoriesId: 777 }, mod.token)).Code).toBe(Code.CATEGORY_NOT_FOUND);
    expect((await op({ id: th.threadId, categoriesId: c2 }, mod.token)).Data.categoryId).toBe(c2);
  });

  it('moves only into a category where the mover may post or edit, as thread.update does', async () => {
    const [from, to] = [await buildCategory(t, admin), await buildCategory(t, admin)];
    const editor = await buildUser(t);
    const keys = ['viewThreads', 'thread.viewPosts', 'createThread', 'thread.edit'];
    await buildGroup(
      t,
      admin,
      keys.map((key) => `category${from}.${key}`),
      [editor.id],
    );
    const th = await buildThread(t, editor.token, { categoryId: from });
    const update = await t.post('/api/v3/thread.update', { threadId: th.threadId, categoryId: to }, editor.token);
    expect(update.Code).toBe(Code.UNAUTHORIZED);
    const moved = await op({ id: th.threadId, categoriesId: to }, editor.token);
    expect(moved).toMatchObject({ Code: Code.UNAUTHORIZED, Message: update.Message });
    expect((await detail(th.threadId, editor.token)).Data.categoryId).toBe(from);
  });

  it('refuses an empty operation and a missing thread', async () => {
    expect((await op({ id: 1 }, mod.token)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await op({ id: 555555, isSticky: true }, mod.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await op({ id: 1, isSticky: 'yes' }, mod.token)).Data).toMatchObject({ field: 'isSticky' });
  });
});

describe('view.count and thread.likedusers', () => {
  it('counts views (POST, and GET as the family did), once an hour per visitor', async () => {
    const th = await buildThread(t, alice.token);
    const fromAddress = (i: number) =>
      t.call('POST', '/api/v3/view.count', { body: { threadId: th.threadId }, remoteAddress: `10.4.0.${i}` });
    await Promise.all(Array.from({ length: 5 }, (_v, i) => fromAddress(i)));
    const res = await t.get<{ viewCount: number }>(`/api/v3/view.count?threadId=${th.threadId}`);
    expect(res.Data.viewCount).toBe(6);
    expect((await detail(th.threadId)).Data.viewCount).toBe(6);
    // The same guests again, and the same member reloading, add nothing; another member adds one.
    await Promise.all(Array.from({ length: 5 }, (_v, i) => fromAddress(i)));
    for (let i = 0; i < 3; i += 1) await t.post('/api/v3/view.count', { threadId: th.threadId }, bob.token);
    const counted = await t.post<{ viewCount: number }>('/api/v3/view.count', { threadId: th.threadId }, alice.token);
    expect(counted.Data.viewCount).toBe(8);
    expect((await detail(th.threadId, alice.token)).Data.viewCount).toBe(8);
    expect((await t.post('/api/v3/view.count', { threadId: 999999 })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.post('/api/v3/view.count', {})).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('lists who liked the first post', async () => {
    const th = await buildThread(t, alice.token);
    for (const u of [bob, mod]) {
      expect((await t.post('/api/v3/posts.update', { id: th.postId, isLiked: true }, u.token)).Code).toBe(0);
    }
    const res = await t.get<Page<LikedUser>>(`/api/v3/thread.likedusers?threadId=${th.threadId}`);
    expect(res.Data.totalCount).toBe(2);
    expect(res.Data.pageData.map((u) => u.userId).sort()).toEqual([bob.id, mod.id].sort());
    expect((await detail(th.threadId, bob.token)).Data).toMatchObject({ likeCount: 2, isLiked: true });
    // Each viewer's own marks: the author liked nothing and keeps no favourite; a guest has none.
    expect((await t.post('/api/v3/threads/operate', { id: th.threadId, isFavorite: true }, bob.token)).Code).toBe(0);
    expect((await detail(th.threadId, bob.token)).Data).toMatchObject({ isLiked: true, isFavorite: true });
    expect((await detail(th.threadId, alice.token)).Data).toMatchObject({ isLiked: false, isFavorite: false });
    expect((await t.get(`/api/v3/thread.detail?threadId=${th.threadId}`)).Data).toMatchObject({
      likeCount: 2,
      isLiked: false,
      isFavorite: false,
    });
    expect((await t.get('/api/v3/thread.likedusers?threadId=999999')).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });
});
