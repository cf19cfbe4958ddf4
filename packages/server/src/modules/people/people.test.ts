import { Code, GroupId, type Page, type PersonItem, type UserProfile } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread, memberPermissions, setGroupPermissions } from '../../test/forum-fixtures.js';

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

/** The card as `token` sees it (by default as the administrator, who may see everyone). */
const profile = async (userId: number, token?: string) =>
  (await t.get<UserProfile>(`/api/v3/user?userId=${userId}`, token ?? admin)).Data;
const followUser = (token: string, toUserId: number) =>
  t.post<{ isMutual: boolean }>('/api/v3/follow.create', { toUserId }, token);
const unfollow = (token: string, id: number, type: 1 | 2 = 1) => t.post('/api/v3/follow.delete', { id, type }, token);
const people = (userId: number, type: 1 | 2, token?: string) =>
  t.get<Page<PersonItem>>(`/api/v3/follow.list?filter[type]=${type}&filter[userId]=${userId}`, token ?? admin);
const denyUser = (token: string, id: number) => t.post('/api/v3/users/deny.create', { id }, token);
const undenyUser = (token: string, id: number) => t.post('/api/v3/users/deny.delete', { id }, token);

describe('the profile card', () => {
  it('shows a member with counts, group and join date; the viewer’s relation; -4004 for nobody', async () => {
    const [alice, bob] = [await buildUser(t, { nickname: '爱丽丝' }), await buildUser(t)];
    await buildThread(t, alice.token);
    const card = await profile(alice.id, bob.token);
    expect(card).toMatchObject({
      id: alice.id,
      username: alice.username,
      nickname: '爱丽丝',
      threadCount: 1,
      followCount: 0,
      fansCount: 0,
      follow: 0,
      isDeny: false,
      isMe: false,
      group: { id: GroupId.MEMBER },
    });
    expect(Date.parse(card.joinedAt)).toBeGreaterThan(0);
    expect((await profile(alice.id, alice.token)).isMe).toBe(true);
    // Guests may read it where their group holds user.view (not by default).
    expect((await t.get(`/api/v3/user?userId=${alice.id}`)).Code).toBe(Code.JUMP_TO_LOGIN);
    const guestPerms = (
      await t.get<{ permissions: string[] }>(`/api/group.resource.v2?id=${GroupId.GUEST}&include=permission`, admin)
    ).Data.permissions;
    await setGroupPermissions(t, admin, GroupId.GUEST, [...guestPerms, 'user.view']);
    try {
      expect((await t.get(`/api/v3/user?userId=${alice.id}`)).Code).toBe(0);
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, guestPerms);
    }
    expect((await t.get('/api/v3/user?userId=999999', bob.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    for (const bad of ['0', '-1', 'abc', '1.5', '']) {
      expect((await t.get(`/api/v3/user?userId=${bad}`, bob.token)).Code).toBe(Code.INVALID_PARAMETER);
    }
  });

  it('needs user.view (except for one’s own card)', async () => {
    const saved = await memberPermissions(t, admin);
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      saved.filter((p) => p !== 'user.view'),
    );
    try {
      expect((await t.get(`/api/v3/user?userId=${alice.id}`, bob.token)).Code).toBe(Code.UNAUTHORIZED);
      expect((await t.get(`/api/v3/user?userId=${bob.id}`, bob.token)).Code).toBe(0);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, saved);
    }
  });
});

describe('follow', () => {
  it('follows, becomes mutual when followed back, and keeps the counts', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    expect(await followUser(alice.token, bob.id)).toMatchObject({ Code: 0, Data: { isMutual: false } });
    expect((await profile(bob.id, alice.token)).follow).toBe(1);
    expect(await followUser(bob.token, alice.id)).toMatchObject({ Code: 0, Data: { isMutual: true } });
    expect((await profile(bob.id, alice.token)).follow).toBe(2);
    expect((await profile(alice.id, bob.token)).follow).toBe(2);
    // Following twice changes nothing.
    expect((await followUser(alice.token, bob.id)).Code).toBe(0);
    expect(await profile(bob.id)).toMatchObject({ followCount: 1, fansCount: 1 });
    expect(await profile(alice.id)).toMatchObject({ followCount: 1, fansCount: 1 });
  });

  it('lists follows and fans with the viewer’s own relation', async () => {
    const [alice, bob, carol] = [await buildUser(t), await buildUser(t), await buildUser(t)];
    await followUser(alice.token, bob.id);
    await followUser(alice.token, carol.id);
    await followUser(carol.token, alice.id);
    const follows = await people(alice.id, 1, carol.token);
    expect(follows.Code).toBe(0);
    expect(follows.Data.totalCount).toBe(2);
    expect(follows.Data.pageData.map((p) => p.id)).toEqual([carol.id, bob.id]);
    // carol's own relation to each: she does not follow bob, she herself is carol (0).
    expect(follows.Data.pageData.map((p) => p.follow)).toEqual([0, 0]);
    const fans = await people(carol.id, 2, alice.token);
    expect(fans.Data.pageData).toMatchObject([{ id: alice.id, follow: 0 }]);
    const bobsFans = await people(bob.id, 2, carol.token);
    expect(bobsFans.Data.pageData).toMatchObject([{ id: alice.id, follow: 2 }]);
    expect((await t.get('/api/v3/follow.list?filter[type]=3&filter[userId]=1', alice.token)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    expect((await t.get('/api/v3/follow.list?filter[type]=1', alice.token)).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('unfollows (type 1) and removes a fan (type 2)', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    await followUser(alice.token, bob.id);
    await followUser(bob.token, alice.id);
    expect((await unfollow(alice.token, bob.id, 1)).Code).toBe(0);
    expect(await profile(bob.id, alice.token)).toMatchObject({ follow: 0, fansCount: 0, followCount: 1 });
    expect((await unfollow(alice.token, bob.id, 2)).Code).toBe(0);
    expect(await profile(alice.id)).toMatchObject({ fansCount: 0, followCount: 0 });
    // Removing what is not there changes nothing.
    expect((await unfollow(alice.token, bob.id, 1)).Code).toBe(0);
    expect(await profile(bob.id)).toMatchObject({ fansCount: 0, followCount: 0 });
  });

  it('refuses yourself (-7059), guests (-3001), the banned (-4009), without userFollow.create, and bad ids', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    expect((await followUser(alice.token, alice.id)).Code).toBe(Code.CANNOT_FOLLOW_SELF);
    expect((await t.post('/api/v3/follow.create', { toUserId: bob.id })).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await followUser(alice.token, 999999)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    for (const toUserId of [0, -3, 'x', 1.5, null]) {
      expect((await t.post('/api/v3/follow.create', { toUserId }, alice.token)).Code).toBe(Code.INVALID_PARAMETER);
    }
    expect((await t.post('/api/v3/follow.delete', { id: bob.id, type: 3 }, alice.token)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    const saved = await memberPermissions(t, admin);
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      saved.filter((p) => p !== 'userFollow.create'),
    );
    try {
      expect((await followUser(alice.token, bob.id)).Code).toBe(Code.UNAUTHORIZED);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, saved);
    }
    const banned = await buildUser(t);
    expect(
      (await t.post('/api/backAdmin/users/update.user', { id: banned.id, status: 1, reason: 'x' }, admin)).Code,
    ).toBe(0);
    expect((await followUser(banned.token, bob.id)).Code).toBe(Code.USER_BANNED);
    expect(await profile(bob.id)).toMatchObject({ fansCount: 0 });
  });

  it('keeps fansCount exact under 30 concurrent follows and 30 concurrent unfollows', async () => {
    const star = await buildUser(t);
    const fans: User[] = [];
    for (let i = 0; i < 30; i += 1) fans.push(await buildUser(t));
    // Each fan also sends its follow twice at once: one of the two must change nothing.
    const answers = await Promise.all(
      fans.flatMap((f) => [followUser(f.token, star.id), followUser(f.token, star.id)]),
    );
    expect(answers.every((a) => a.Code === 0)).toBe(true);
    expect((await profile(star.id)).fansCount).toBe(30);
    expect((await people(star.id, 2)).Data.totalCount).toBe(30);
    await Promise.all(fans.flatMap((f) => [unfollow(f.token, star.id), unfollow(f.token, star.id)]));
    expect((await profile(star.id)).fansCount).toBe(0);
    expect((await profile(fans[0]!.id)).followCount).toBe(0);
  });
});

describe('block', () => {
  it('ends both follows, stops following in both directions, and lists and unblocks', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    await followUser(alice.token, bob.id);
    await followUser(bob.token, alice.id);
    expect((await denyUser(alice.token, bob.id)).Code).toBe(0);
    expect(await profile(bob.id, alice.token)).toMatchObject({ isDeny: true, follow: 0, fansCount: 0, followCount: 0 });
    expect(await profile(alice.id, bob.token)).toMatchObject({ isDenied: true, fansCount: 0, followCount: 0 });
    expect((await followUser(bob.token, alice.id)).Code).toBe(Code.BLOCKED_BY_USER);
    expect((await followUser(alice.token, bob.id)).Code).toBe(Code.USER_DENIED);
    expect((await denyUser(alice.token, bob.id)).Code).toBe(0);
    const list = await t.get<Page<PersonItem>>('/api/v3/users/deny.list', alice.token);
    expect(list.Data.pageData.map((p) => p.id)).toEqual([bob.id]);
    expect((await t.get('/api/v3/users/deny.list')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await undenyUser(alice.token, bob.id)).Code).toBe(0);
    expect((await profile(bob.id, alice.token)).isDeny).toBe(false);
    expect((await followUser(bob.token, alice.id)).Data).toEqual({ isMutual: false });
    expect((await denyUser(alice.token, alice.id)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await denyUser(alice.token, 999999)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.post('/api/v3/users/deny.create', { id: bob.id })).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it("takes the blocked member's threads out of the blocker's lists", async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const { threadId } = await buildThread(t, bob.token);
    const ids = async () =>
      (await t.get<Page<{ threadId: number }>>('/api/v3/thread.list?perPage=50', alice.token)).Data.pageData.map(
        (p) => p.threadId,
      );
    expect(await ids()).toContain(threadId);
    await denyUser(alice.token, bob.id);
    expect(await ids()).not.toContain(threadId);
    await undenyUser(alice.token, bob.id);
    expect(await ids()).toContain(threadId);
  });
});

describe('likes and mentions between people', () => {
  it('lists the threads a member liked where they allow it (the likes tab of their page)', async () => {
    const [alice, bob, carol] = [await buildUser(t), await buildUser(t), await buildUser(t)];
    const liked = await buildThread(t, bob.token);
    const other = await buildThread(t, bob.token);
    expect((await t.post('/api/v3/posts.update', { id: liked.postId, isLiked: true }, alice.token)).Code).toBe(0);
    const likesOf = (token?: string) =>
      t.get<Page<{ threadId: number }>>(`/api/v3/thread.list?filter[complex]=2&filter[toUserId]=${alice.id}`, token);
    const seen = await likesOf(carol.token);
    expect(seen.Code).toBe(0);
    expect(seen.Data.pageData.map((p) => p.threadId)).toEqual([liked.threadId]);
    expect(seen.Data.pageData.map((p) => p.threadId)).not.toContain(other.threadId);
    expect((await t.post('/api/v3/users/update.user', { likesPublic: false }, alice.token)).Code).toBe(0);
    expect((await likesOf(carol.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await likesOf(alice.token)).Data.totalCount).toBe(1);
    expect((await likesOf(admin)).Data.totalCount).toBe(1);
  });

  it('does not link a mention of a member who blocked the author', async () => {
    const [alice, bob, carol] = [await buildUser(t), await buildUser(t), await buildUser(t)];
    await denyUser(carol.token, alice.id);
    const thread = await buildThread(t, alice.token, { text: `你好 @${bob.username} 和 @${carol.username}` });
    expect(thread.content.html).toContain(`>@${bob.username}</a>`);
    expect(thread.content.html).not.toContain(`>@${carol.username}</a>`);
    expect(thread.content.html).toContain(`@${carol.username}`);
  });
});

describe("a blocked member's replies", () => {
  it("leave the blocker's view of a thread, replies and comments alike", async () => {
    const [alice, bob, carol] = [await buildUser(t), await buildUser(t), await buildUser(t)];
    const thread = await buildThread(t, carol.token);
    const reply = await t.post<{ id: number }>(
      '/api/v3/posts.create',
      { id: thread.threadId, content: '鲍勃的回复' },
      bob.token,
    );
    expect(reply.Code).toBe(0);
    await t.post('/api/v3/posts.create', { id: thread.threadId, content: '爱丽丝的回复' }, alice.token);
    const replies = async (token: string) =>
      (await t.get<Page<{ content: { text: string } }>>(`/api/v3/posts.list?threadId=${thread.threadId}`, token)).Data;
    expect((await replies(alice.token)).totalCount).toBe(2);
    await denyUser(alice.token, bob.id);
    const seen = await replies(alice.token);
    expect(seen.totalCount).toBe(1);
    expect(seen.pageData.map((p) => p.content.text)).toEqual(['爱丽丝的回复']);
    expect((await replies(carol.token)).totalCount).toBe(2);
  });
});
