import { Code, GroupId, type Page, type ThreadItem } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import {
  block,
  buildCategory,
  buildGroup,
  buildReply,
  buildThread,
  memberPermissions,
  pause,
  setGroupPermissions,
} from '../../test/forum-fixtures.js';

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;
let alice: User;
let bob: User;
let mod: User;
let parent: number;
let child: number;
let other: number;
let memberPerms: string[];
/** Threads made in beforeAll, oldest first. */
const made = { inParent: 0, inChild: 0, inOther: 0, byBob: 0 };

const list = async (query: string, token?: string) => t.get<Page<ThreadItem>>(`/api/v3/thread.list?${query}`, token);
const ids = async (query: string, token?: string) => {
  const res = await list(query, token);
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data.pageData.map((d) => d.threadId);
};

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  alice = await buildUser(t);
  bob = await buildUser(t);
  mod = await buildUser(t);
  await buildGroup(
    t,
    admin,
    ['viewThreads', 'thread.viewPosts', 'thread.sticky', 'thread.essence', 'thread.edit', 'thread.hide'],
    [mod.id],
  );
  memberPerms = await memberPermissions(t, admin);
  parent = await buildCategory(t, admin, { name: 'parent' });
  child = await buildCategory(t, admin, { name: 'child', parentId: parent });
  other = await buildCategory(t, admin, { name: 'other' });
  made.inParent = (await buildThread(t, alice.token, { categoryId: parent, title: 'in parent' })).threadId;
  await pause();
  made.inChild = (await buildThread(t, alice.token, { categoryId: child, title: 'in child' })).threadId;
  await pause();
  made.inOther = (await buildThread(t, bob.token, { categoryId: other, title: 'in other' })).threadId;
  await pause();
  made.byBob = (await buildThread(t, bob.token, { categoryId: other, title: 'by bob' })).threadId;
});
afterAll(async () => {
  await t.close();
});

describe('thread.list', () => {
  it('answers a page in the family shape, newest first', async () => {
    const res = await list('perPage=2');
    expect(res.Code).toBe(0);
    expect(Object.keys(res.Data).sort()).toEqual(['currentPage', 'pageData', 'perPage', 'totalCount', 'totalPage']);
    expect(res.Data).toMatchObject({ currentPage: 1, perPage: 2, totalCount: 4, totalPage: 2 });
    const first = res.Data.pageData[0]!;
    expect(first).toMatchObject({
      threadId: made.byBob,
      title: 'by bob',
      categoryId: other,
      categoryName: 'other',
      user: { userId: bob.id, nickname: expect.any(String), avatar: '' },
      viewCount: 0,
      postCount: 0,
      likeCount: 0,
      isSticky: false,
      isEssence: false,
      ability: { canViewPosts: true, canReply: false, canEdit: false, canDelete: false },
    });
    expect(typeof first.summary).toBe('string');
    expect(first.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const page2 = await ids('perPage=2&page=2');
    expect(page2).toEqual([made.inChild, made.inParent]);
    expect(await ids('perPage=2&page=3')).toEqual([]);
  });

  it('says what the viewer may do', async () => {
    const [mine] = (await list(`filter[toUserId]=${alice.id}&perPage=1`, alice.token)).Data.pageData;
    expect(mine!.ability).toMatchObject({
      canEdit: true,
      canDelete: true,
      canReply: true,
      canLike: true,
      canSticky: false,
    });
    const [modded] = (await list(`filter[toUserId]=${alice.id}&perPage=1`, mod.token)).Data.pageData;
    expect(modded!.ability).toMatchObject({
      canEdit: true,
      canDelete: true,
      canSticky: true,
      canEssence: true,
      canReply: false,
    });
    const [asAdmin] = (await list('perPage=1', admin)).Data.pageData;
    expect(Object.values(asAdmin!.ability).every(Boolean)).toBe(true);
  });

  it.each([
    ['perPage over 50', 'perPage=51', 'perPage'],
    ['page 0', 'page=0', 'page'],
    ['a sort of 9', 'filter[sort]=9', 'filter.sort'],
    ['a complex of 4', 'filter[complex]=4', 'filter.complex'],
    ['a non-numeric category', 'filter[categoryids][]=abc', 'filter.categoryids.0'],
    ['essence of 2', 'filter[essence]=2', 'filter.essence'],
    ['filter as text', 'filter=abc', 'filter'],
    ['a search too long', `filter[search]=${'x'.repeat(101)}`, 'filter.search'],
  ])('refuses %s with -4001', async (_name, query, field) => {
    const res = await list(query);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
  });

  it('filters by category in every query form, sub-categories included; -7076 for a missing one', async () => {
    const both = [made.inChild, made.inParent];
    expect(await ids(`filter[categoryids][]=${parent}`)).toEqual(both);
    expect(await ids(`filter[categoryids][0]=${parent}`)).toEqual(both);
    expect(await ids(`filter[categoryids]=${parent}`)).toEqual(both);
    expect(await ids(`filter[categoryids]=${child},${other}`)).toEqual([made.byBob, made.inOther, made.inChild]);
    expect(await ids(`filter[categoryids][]=${child}`)).toEqual([made.inChild]);
    expect((await list('filter[categoryids][]=9999')).Code).toBe(Code.CATEGORY_NOT_FOUND);
  });

  it('puts sticky threads first on the home list, and keeps essence apart', async () => {
    await t.post('/api/v3/threads/operate', { id: made.inParent, isSticky: true }, mod.token);
    await t.post('/api/v3/threads/operate', { id: made.inChild, isEssence: true }, mod.token);
    try {
      expect((await ids(''))[0]).toBe(made.inParent);
      expect((await ids(`filter[categoryids][]=${parent}`))[0]).toBe(made.inParent);
      // Not when looking at one author's threads.
      expect((await ids(`filter[complex]=5&filter[toUserId]=${alice.id}`))[0]).toBe(made.inChild);
      expect(await ids('filter[essence]=1')).toEqual([made.inChild]);
      expect(await ids('filter[essence]=0')).not.toContain(made.inChild);
      const sticky = await t.get<ThreadItem[]>('/api/v3/thread.stick');
      expect(sticky.Data.map((d) => d.threadId)).toEqual([made.inParent]);
    } finally {
      await t.post('/api/v3/threads/operate', { id: made.inParent, isSticky: false }, mod.token);
      await t.post('/api/v3/threads/operate', { id: made.inChild, isEssence: false }, mod.token);
    }
  });

  it('sorts by last reply (2), hot (3) and updated (4)', async () => {
    await buildReply(t, bob.token, made.inParent);
    expect((await ids('filter[sort]=2'))[0]).toBe(made.inParent);
    // A view counts once an hour per visitor: three visitors, then one.
    for (let i = 0; i < 3; i += 1) {
      await t.call('POST', '/api/v3/view.count', { body: { threadId: made.inChild }, remoteAddress: `10.3.0.${i}` });
    }
    await t.post('/api/v3/view.count', { threadId: made.inOther });
    expect((await ids('filter[sort]=3')).slice(0, 2)).toEqual([made.inChild, made.inOther]);
    await t.post('/api/v3/thread.update', { threadId: made.inOther, title: 'in other, edited' }, bob.token);
    expect((await ids('filter[sort]=4'))[0]).toBe(made.inOther);
  });

  it('lists what the viewer liked (2), favourited (3) and one author (5)', async () => {
    const liked = (await list(`filter[toUserId]=${bob.id}`)).Data.pageData.find((d) => d.threadId === made.inOther)!;
    await t.post('/api/v3/posts.update', { id: liked.postId, isLiked: true }, alice.token);
    await t.post('/api/v3/threads/operate', { id: made.byBob, isFavorite: true }, alice.token);
    expect(await ids('filter[complex]=2', alice.token)).toEqual([made.inOther]);
    expect(await ids('filter[complex]=3', alice.token)).toEqual([made.byBob]);
    expect(await ids(`filter[complex]=5&filter[toUserId]=${bob.id}`)).toEqual([made.byBob, made.inOther]);
    expect((await list('filter[complex]=2')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await list('filter[complex]=3')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await list('filter[complex]=5')).Code).toBe(Code.INVALID_PARAMETER);
    const [item] = (await list(`filter[complex]=2`, alice.token)).Data.pageData;
    expect(item).toMatchObject({ isLiked: true, likeCount: 1 });
  });

  it('the liked list names the liker: another author’s thread held for review after the like is left out', async () => {
    const held = await buildThread(t, bob.token, { categoryId: other, title: 'liked, then held' });
    await t.post('/api/v3/posts.update', { id: held.postId, isLiked: true }, alice.token);
    const liked = `filter[complex]=2&filter[toUserId]=${alice.id}`;
    expect(await ids(liked, alice.token)).toContain(held.threadId);
    // As an edit with a {MOD} word leaves it: waiting for review, seen by its author and moderators only.
    await t.app.ctx.db.updateTable('threads').set({ isApproved: 0 }).where('id', '=', held.threadId).execute();
    expect(await ids(liked, alice.token)).not.toContain(held.threadId);
    expect(await ids('filter[complex]=2', alice.token)).not.toContain(held.threadId);
    // Its author still sees it in their own list, marked.
    const own = await list(`filter[complex]=5&filter[toUserId]=${bob.id}`, bob.token);
    expect(own.Data.pageData.find((d) => d.threadId === held.threadId)).toMatchObject({ isApproved: false });
  });

  it('leaves out threads of authors the viewer blocked, and deleted ones', async () => {
    const carol = await buildUser(t);
    await block(t, carol.id, bob.id);
    const seen = await ids('perPage=50', carol.token);
    expect(seen).not.toContain(made.byBob);
    expect(seen).toContain(made.inParent);
    expect(await ids('perPage=50', alice.token)).toContain(made.byBob);

    const gone = await buildThread(t, alice.token, { categoryId: other });
    await t.post('/api/v3/thread.delete', { threadId: gone.threadId }, alice.token);
    expect(await ids('perPage=50')).not.toContain(gone.threadId);
  });
});

describe('thread.list permissions', () => {
  it('a group without viewThreads: a guest is sent to log in, a member refused', async () => {
    await setGroupPermissions(t, admin, GroupId.GUEST, ['thread.viewPosts']);
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => p !== 'viewThreads'),
    );
    try {
      expect((await list('')).Code).toBe(Code.JUMP_TO_LOGIN);
      expect((await list('', bob.token)).Code).toBe(Code.UNAUTHORIZED);
      expect((await list('', admin)).Code).toBe(0);
      expect((await t.get<unknown[]>('/api/v3/categories')).Data).toEqual([]);
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });

  it('a grant in one category shows that category only', async () => {
    await setGroupPermissions(t, admin, GroupId.GUEST, [`category${other}.viewThreads`, 'thread.viewPosts']);
    try {
      const seen = await ids('perPage=50');
      expect(seen.sort()).toEqual([made.byBob, made.inOther].sort());
      expect((await list(`filter[categoryids][]=${parent}`)).Code).toBe(Code.JUMP_TO_LOGIN);
      const cats = await t.get<{ categoryId: number }[]>('/api/v3/categories');
      expect(cats.Data.map((c) => c.categoryId)).toEqual([other]);
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
    }
  });
});
