import {
  Code,
  GroupId,
  mentionMarkdown,
  type Page,
  type PostItem,
  type PostPosition,
  type ThreadDetail,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import {
  buildCategory,
  buildGroup,
  buildReply,
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
let memberPerms: string[];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  alice = await buildUser(t);
  bob = await buildUser(t);
  mod = await buildUser(t);
  await buildGroup(
    t,
    admin,
    ['viewThreads', 'thread.viewPosts', 'thread.reply', 'thread.likePosts', 'thread.edit', 'thread.hidePosts'],
    [mod.id],
  );
  memberPerms = await memberPermissions(t, admin);
});
afterAll(async () => {
  await t.close();
});

const thread = async (id: number, token?: string) =>
  (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${id}`, token)).Data;
const posts = (threadId: number, query = '', token?: string) =>
  t.get<Page<PostItem>>(`/api/v3/posts.list?threadId=${threadId}${query}`, token);
const update = (body: object, token?: string) => t.post<PostItem>('/api/v3/posts.update', body, token);
const userRow = (id: number) =>
  t.server.database.db
    .selectFrom('users')
    .select(['postCount', 'likedCount'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('posts.create', () => {
  it('replies to a thread and answers the post, Data.id being its id', async () => {
    const th = await buildThread(t, alice.token);
    const before = await userRow(bob.id);
    const res = await t.post<PostItem>('/api/v3/posts.create', { id: th.threadId, content: '同意 **+1**' }, bob.token);
    expect(res.Code).toBe(0);
    expect(res.Data).toMatchObject({
      threadId: th.threadId,
      user: { userId: bob.id },
      content: { text: '同意 **+1**', html: '<p>同意 <strong>+1</strong></p>\n' },
      isFirst: false,
      isComment: false,
      likeCount: 0,
      replyCount: 0,
      ability: { canEdit: true, canDelete: true, canLike: true, canReply: true },
    });
    expect(res.Data.id).toBeGreaterThan(th.postId);
    const after = await thread(th.threadId);
    expect(after.postCount).toBe(1);
    expect(after.lastPostedAt >= th.lastPostedAt).toBe(true);
    expect((await userRow(bob.id)).postCount).toBe(before.postCount + 1);
    // `{text}` is accepted too.
    expect((await t.post('/api/v3/posts.create', { id: th.threadId, content: { text: 'x' } }, bob.token)).Code).toBe(0);
  });

  it('comments on a reply (replyId) and answers a comment (commentPostId)', async () => {
    const th = await buildThread(t, alice.token);
    const reply = await buildReply(t, bob.token, th.threadId);
    const c1 = await buildReply(t, alice.token, th.threadId, { replyId: reply.id, text: 'first comment' });
    expect(c1).toMatchObject({ isComment: true, replyPostId: reply.id, replyUserId: bob.id, commentPostId: null });
    const c2 = await buildReply(t, bob.token, th.threadId, { commentPostId: c1.id, text: 'answer' });
    expect(c2).toMatchObject({ isComment: true, replyPostId: reply.id, commentPostId: c1.id });
    expect(c2.commentUser?.userId).toBe(alice.id);
    expect((await thread(th.threadId)).postCount).toBe(1);
    const list = await posts(th.threadId);
    expect(list.Data.totalCount).toBe(1);
    const [r] = list.Data.pageData;
    expect(r).toMatchObject({ id: reply.id, replyCount: 2 });
    expect(r!.comments.map((c) => c.id)).toEqual([c1.id, c2.id]);
    const comments = await t.get<Page<PostItem>>(`/api/v3/posts.reply?postId=${reply.id}&perPage=1&page=2`);
    expect(comments.Data).toMatchObject({ totalCount: 2, totalPage: 2 });
    expect(comments.Data.pageData.map((c) => c.id)).toEqual([c2.id]);
    expect((await t.get(`/api/v3/posts.reply?postId=${c1.id}`)).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('refuses bad input and missing resources', async () => {
    const th = await buildThread(t, alice.token);
    const other = await buildThread(t, alice.token);
    const foreign = await buildReply(t, bob.token, other.threadId);
    const reply = await buildReply(t, bob.token, th.threadId);
    const create = (body: object) => t.post('/api/v3/posts.create', body, bob.token);
    expect((await create({ id: th.threadId, content: '  ' })).Data).toMatchObject({ field: 'content' });
    expect((await create({ id: th.threadId })).Data).toMatchObject({ field: 'content' });
    expect((await create({ id: th.threadId, content: '字'.repeat(50_001) })).Data).toMatchObject({ field: 'content' });
    expect((await create({ content: 'x' })).Data).toMatchObject({ field: 'id' });
    expect((await create({ id: 999999, content: 'x' })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await create({ id: th.threadId, content: 'x', replyId: foreign.id })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await create({ id: th.threadId, content: 'x', replyId: th.postId })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await create({ id: th.threadId, content: 'x', isComment: true })).Data).toMatchObject({ field: 'replyId' });
    const other2 = await buildReply(t, bob.token, th.threadId);
    const comment = await buildReply(t, bob.token, th.threadId, { replyId: reply.id });
    expect(
      (await create({ id: th.threadId, content: 'x', replyId: other2.id, commentPostId: comment.id })).Data,
    ).toMatchObject({ field: 'commentPostId' });
  });

  it('needs a login and thread.reply, globally or in the category', async () => {
    const c = await buildCategory(t, admin);
    const th = await buildThread(t, alice.token, { categoryId: c });
    const other = await buildThread(t, alice.token);
    expect((await t.post('/api/v3/posts.create', { id: th.threadId, content: 'x' })).Code).toBe(Code.JUMP_TO_LOGIN);
    const scoped = memberPerms.filter((p) => p !== 'thread.reply').concat(`category${c}.thread.reply`);
    await setGroupPermissions(t, admin, GroupId.MEMBER, scoped);
    try {
      expect((await t.post('/api/v3/posts.create', { id: th.threadId, content: 'x' }, bob.token)).Code).toBe(0);
      expect((await t.post('/api/v3/posts.create', { id: other.threadId, content: 'x' }, bob.token)).Code).toBe(
        Code.UNAUTHORIZED,
      );
      expect((await thread(other.threadId, bob.token)).ability.canReply).toBe(false);
      expect((await thread(th.threadId, bob.token)).ability.canReply).toBe(true);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });

  it('keeps every reply counted under concurrent replies and comments', async () => {
    const th = await buildThread(t, alice.token);
    const reply = await buildReply(t, bob.token, th.threadId);
    const users = [alice, bob, mod];
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => buildReply(t, users[i % 3]!.token, th.threadId)),
      ...Array.from({ length: 9 }, (_, i) => buildReply(t, users[i % 3]!.token, th.threadId, { replyId: reply.id })),
    ]);
    expect((await thread(th.threadId)).postCount).toBe(13);
    const list = await posts(th.threadId, '&perPage=50');
    expect(list.Data.totalCount).toBe(13);
    expect(list.Data.pageData.find((p) => p.id === reply.id)?.replyCount).toBe(9);
  });

  it('renders replies safely and resolves mentions', async () => {
    const th = await buildThread(t, alice.token);
    const res = await buildReply(t, bob.token, th.threadId, {
      text: `@${alice.username} <script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>`,
    });
    expect(res.content.html).not.toMatch(/<script|<img|href="javascript/i);
    expect(res.content.html).toContain(`data-user-id="${alice.id}"`);
  });

  it('links [@nickname](/user/id) by the id and shows the nickname; @username still works', async () => {
    const th = await buildThread(t, alice.token);
    const carol = await buildUser(t, { nickname: '卡 [罗尔]*' });
    const dave = await buildUser(t);
    expect((await t.post('/api/v3/users/deny.create', { id: bob.id }, dave.token)).Code).toBe(0);
    const link = (id: number) => `<a href="/user/${id}" class="mention" data-user-id="${id}">`;
    const res = await buildReply(t, bob.token, th.threadId, {
      text: [
        `${mentionMarkdown({ id: carol.id, nickname: '卡 [罗尔]*' })} 你好`,
        // The text cannot dress the link up as someone else: the member's own nickname shows.
        `[@管理员](/user/${alice.id})`,
        // One who blocked the author, and nobody: the text stays, unlinked.
        `[@dave](/user/${dave.id}) [@无人](/user/99999999)`,
        // Not a mention: a profile link without @, an @ link elsewhere, and an old-style name.
        `[主页](/user/${carol.id}) [@x](https://example.com/user/${carol.id}) @${mod.username}`,
      ].join('\n'),
    });
    const { html } = res.content;
    expect(html).toContain(`${link(carol.id)}@卡 [罗尔]*</a> 你好`);
    expect(html).toContain(`${link(alice.id)}@${alice.username}</a>`);
    expect(html).not.toContain('管理员');
    expect(html).toContain('@dave @无人');
    expect(html).not.toContain(`/user/${dave.id}`);
    expect(html).toContain(`<a href="/user/${carol.id}">主页</a>`);
    expect(html).toContain(`<a href="https://example.com/user/${carol.id}"`);
    expect(html).toContain(`${link(mod.id)}@${mod.username}</a>`);
    expect(html.match(/<a /g)).toHaveLength(5);

    // A link's text is never linked again, whatever name it holds.
    const nested = await buildReply(t, bob.token, th.threadId, { text: `[@${mod.username}](https://example.com)` });
    expect(nested.content.html.match(/<a /g)).toHaveLength(1);
  });
});

describe('posts.list', () => {
  it('pages replies oldest first (or newest with sort=-createdAt); -4004 for a missing thread', async () => {
    const th = await buildThread(t, alice.token);
    const r1 = await buildReply(t, bob.token, th.threadId);
    const r2 = await buildReply(t, bob.token, th.threadId);
    const r3 = await buildReply(t, bob.token, th.threadId);
    const page = await posts(th.threadId, '&perPage=2');
    expect(page.Data).toMatchObject({ totalCount: 3, totalPage: 2, currentPage: 1, perPage: 2 });
    expect(page.Data.pageData.map((p) => p.id)).toEqual([r1.id, r2.id]);
    expect((await posts(th.threadId, '&sort=-createdAt')).Data.pageData.map((p) => p.id)).toEqual([
      r3.id,
      r2.id,
      r1.id,
    ]);
    // The total on every page: a full page (counted), the last one, past the end, and a thread without replies.
    expect((await posts(th.threadId, '&perPage=2&page=2')).Data).toMatchObject({ totalCount: 3, totalPage: 2 });
    const past = await posts(th.threadId, '&perPage=2&page=3');
    expect(past.Data).toMatchObject({ totalCount: 3, totalPage: 2, pageData: [] });
    expect((await posts(th.threadId, '&perPage=3&page=2')).Data).toMatchObject({ totalCount: 3, pageData: [] });
    const empty = await buildThread(t, alice.token);
    expect((await posts(empty.threadId)).Data).toMatchObject({ totalCount: 0, pageData: [] });
    expect((await posts(empty.threadId, '&page=2')).Data).toMatchObject({ totalCount: 0, pageData: [] });
    expect((await t.get('/api/v3/posts.list?threadId=999999')).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/v3/posts.list')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await posts(th.threadId, '&sort=sideways')).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('needs thread.viewPosts', async () => {
    const th = await buildThread(t, alice.token);
    await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads']);
    try {
      expect((await posts(th.threadId)).Code).toBe(Code.JUMP_TO_LOGIN);
      expect((await posts(th.threadId, '', bob.token)).Code).toBe(0);
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
    }
  });
});

describe('posts.update', () => {
  it('likes once per user, unlikes, and counts right under concurrent likes', async () => {
    const th = await buildThread(t, alice.token);
    const likers = await Promise.all(Array.from({ length: 8 }, () => buildUser(t)));
    const before = (await userRow(alice.id)).likedCount;
    await Promise.all([
      ...likers.map((u) => update({ id: th.postId, isLiked: true }, u.token)),
      update({ id: th.postId, isLiked: true }, likers[0]!.token),
      update({ id: th.postId, isLiked: true }, likers[1]!.token),
    ]);
    const after = await thread(th.threadId, likers[0]!.token);
    expect(after).toMatchObject({ likeCount: 8, isLiked: true });
    expect((await userRow(alice.id)).likedCount).toBe(before + 8);
    await Promise.all(likers.slice(0, 3).map((u) => update({ id: th.postId, isLiked: false }, u.token)));
    await update({ id: th.postId, isLiked: false }, likers[0]!.token);
    expect((await thread(th.threadId)).likeCount).toBe(5);

    const reply = await buildReply(t, bob.token, th.threadId);
    const liked = await update({ id: reply.id, isLiked: 1 }, alice.token);
    expect(liked.Data).toMatchObject({ likeCount: 1, isLiked: true });
    expect((await thread(th.threadId)).likeCount).toBe(5);

    // The list of replies and their comments, as each viewer reads it: only the liker's own likes are marked.
    const comment = await buildReply(t, alice.token, th.threadId, { replyId: reply.id, text: 'a comment' });
    expect((await update({ id: comment.id, isLiked: 1 }, bob.token)).Code).toBe(0);
    const marks = async (token?: string) => {
      const [item] = (await posts(th.threadId, '', token)).Data.pageData.filter((p) => p.id === reply.id);
      return [item!.isLiked, item!.comments.map((c) => c.isLiked)];
    };
    expect(await marks(alice.token)).toEqual([true, [false]]);
    expect(await marks(bob.token)).toEqual([false, [true]]);
    expect(await marks(likers[2]!.token)).toEqual([false, [false]]);
    expect(await marks()).toEqual([false, [false]]);
  });

  it('needs thread.likePosts to like', async () => {
    const th = await buildThread(t, alice.token);
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => p !== 'thread.likePosts'),
    );
    try {
      expect((await update({ id: th.postId, isLiked: true }, bob.token)).Code).toBe(Code.UNAUTHORIZED);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
    expect((await update({ id: th.postId, isLiked: true })).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('lets the author and a moderator edit; others are refused', async () => {
    const th = await buildThread(t, alice.token);
    const reply = await buildReply(t, bob.token, th.threadId);
    expect((await update({ id: reply.id, content: '改过 _了_' }, bob.token)).Data.content.html).toBe(
      '<p>改过 <em>了</em></p>\n',
    );
    expect((await update({ id: reply.id, content: 'nope' }, alice.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await update({ id: reply.id, content: 'by mod' }, mod.token)).Code).toBe(0);
    expect((await update({ id: reply.id, content: 'by admin' }, admin)).Code).toBe(0);
    // Editing the first post edits the thread's body.
    expect((await update({ id: th.postId, content: 'new body' }, alice.token)).Code).toBe(0);
    expect((await thread(th.threadId)).content.text).toBe('new body');
    expect((await update({ id: reply.id }, bob.token)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ id: 999999, content: 'x' }, bob.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('hides and restores posts, keeping postCount and replyCount right', async () => {
    const th = await buildThread(t, alice.token);
    const r1 = await buildReply(t, bob.token, th.threadId);
    const r2 = await buildReply(t, bob.token, th.threadId);
    const c1 = await buildReply(t, alice.token, th.threadId, { replyId: r1.id });
    expect((await update({ id: r1.id, isDeleted: true }, alice.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await update({ id: th.postId, isDeleted: true }, alice.token)).Data).toMatchObject({ field: 'id' });
    await Promise.all([
      update({ id: r2.id, isDeleted: true }, bob.token),
      update({ id: r2.id, isDeleted: true }, bob.token),
    ]);
    expect((await thread(th.threadId)).postCount).toBe(1);
    expect((await update({ id: c1.id, isDeleted: true }, alice.token)).Code).toBe(0);
    expect((await posts(th.threadId)).Data.pageData[0]).toMatchObject({ id: r1.id, replyCount: 0, comments: [] });
    // The author cannot bring it back; a moderator can.
    expect((await update({ id: r2.id, isDeleted: false }, bob.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await update({ id: r2.id, isDeleted: true }, mod.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await update({ id: r2.id, isDeleted: false }, mod.token)).Code).toBe(0);
    expect((await thread(th.threadId)).postCount).toBe(2);
    expect((await posts(th.threadId)).Data.totalCount).toBe(2);
  });
});

describe('posts.detail', () => {
  const detail = (postId: unknown, token?: string) => t.get<PostItem>(`/api/v3/posts.detail?postId=${postId}`, token);

  it('answers one reply as posts.list presents it, with its first comments, to a member and a guest', async () => {
    const th = await buildThread(t, alice.token);
    const reply = await buildReply(t, bob.token, th.threadId, { text: '**好**' });
    const comment = await buildReply(t, alice.token, th.threadId, { replyId: reply.id });
    await update({ id: reply.id, isLiked: true }, alice.token);
    const listed = (await posts(th.threadId, '', alice.token)).Data.pageData[0]!;

    const mine = await detail(reply.id, alice.token);
    expect(mine.Code).toBe(0);
    expect(mine.Data).toEqual(listed);
    expect(mine.Data).toMatchObject({
      id: reply.id,
      user: { userId: bob.id },
      content: { html: '<p><strong>好</strong></p>\n' },
      isLiked: true,
      likeCount: 1,
      replyCount: 1,
      comments: [{ id: comment.id, isComment: true }],
    });
    const asGuest = await detail(reply.id);
    expect(asGuest.Data).toMatchObject({ id: reply.id, isLiked: false, ability: { canEdit: false, canLike: false } });
  });

  it('refuses the first post, a comment, a missing post, bad input and a viewer without thread.viewPosts', async () => {
    const th = await buildThread(t, alice.token);
    const reply = await buildReply(t, bob.token, th.threadId);
    const comment = await buildReply(t, alice.token, th.threadId, { replyId: reply.id });
    expect((await detail(th.postId)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await detail(comment.id)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await detail(999999)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    const bad = await detail('x');
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).not.toBe('');
    expect((await t.get('/api/v3/posts.detail')).Code).toBe(Code.INVALID_PARAMETER);
    await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads']);
    try {
      expect((await detail(reply.id)).Code).toBe(Code.JUMP_TO_LOGIN);
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
    }
  });
});

describe('posts.postion', () => {
  const position = (threadId: number, postId: unknown, extra = '', token?: string) =>
    t.get<PostPosition>(`/api/v3/posts.postion?filter[threadId]=${threadId}&filter[postId]=${postId}${extra}`, token);

  it("answers the page of posts.list holding a reply and its place there, and a comment's place", async () => {
    const th = await buildThread(t, alice.token);
    const replies = [];
    for (let i = 0; i < 5; i += 1) replies.push(await buildReply(t, bob.token, th.threadId));
    const c1 = await buildReply(t, alice.token, th.threadId, { replyId: replies[0]!.id });
    const c2 = await buildReply(t, alice.token, th.threadId, { replyId: replies[0]!.id });

    const fifth = await position(th.threadId, replies[4]!.id, '&filter[pageSize]=2', alice.token);
    expect(fifth.Code).toBe(0);
    expect(fifth.Data).toEqual({ page: 3, location: 1, pageSize: 2 });
    // The answer matches posts.list's pages.
    const listed = (await posts(th.threadId, `&page=${fifth.Data.page}&perPage=2`)).Data.pageData;
    expect(listed[fifth.Data.location - 1]!.id).toBe(replies[4]!.id);
    expect((await position(th.threadId, replies[3]!.id, '&filter[pageSize]=2')).Data).toEqual({
      page: 2,
      location: 2,
      pageSize: 2,
    });
    // posts.list's default page size when none is given; a comment stands among its reply's comments.
    expect((await position(th.threadId, replies[1]!.id)).Data).toEqual({ page: 1, location: 2, pageSize: 20 });
    expect((await position(th.threadId, c2.id)).Data).toMatchObject({ page: 1, location: 2 });
    expect((await position(th.threadId, c1.id)).Data).toMatchObject({ page: 1, location: 1 });
    // A hidden reply no longer counts before the others.
    await update({ id: replies[0]!.id, isDeleted: true }, bob.token);
    expect((await position(th.threadId, replies[4]!.id, '&filter[pageSize]=2')).Data).toEqual({
      page: 2,
      location: 2,
      pageSize: 2,
    });
  });

  it('refuses bad input, a post of another thread, the first post, and a viewer without thread.viewPosts', async () => {
    const th = await buildThread(t, alice.token);
    const other = await buildThread(t, alice.token);
    const reply = await buildReply(t, bob.token, th.threadId);
    expect((await position(other.threadId, reply.id)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await position(th.threadId, th.postId)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await position(999999, reply.id)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    const bad = await position(th.threadId, reply.id, '&filter[pageSize]=0');
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).not.toBe('');
    expect((await position(th.threadId, 'x')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/v3/posts.postion')).Code).toBe(Code.INVALID_PARAMETER);
    await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads']);
    try {
      expect((await position(th.threadId, reply.id)).Code).toBe(Code.JUMP_TO_LOGIN);
      expect((await position(th.threadId, reply.id, '', bob.token)).Data).toMatchObject({ page: 1, location: 1 });
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, ['viewThreads', 'thread.viewPosts']);
    }
  });
});
