import { Code, type Forum, type GroupData, type GroupPermissionList } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

describe('groups', () => {
  it('seeds the family default groups, member being the default', async () => {
    const res = await t.get<GroupData[]>('/api/groups.list.v2', t.admin);
    expect(res.Code).toBe(0);
    expect(res.Data.map((g) => g.id)).toEqual([1, 6, 7, 8, 10]);
    expect(res.Data.find((g) => g.default)?.id).toBe(10);
  });

  it('reads a group with its permissions', async () => {
    const res = await t.get<GroupData>('/api/group.resource.v2?id=7&include=permission', t.admin);
    expect([...(res.Data.permissions ?? [])].sort()).toEqual(
      [
        'thread.downloadAttachment',
        'thread.viewAttachment',
        'thread.viewPosts',
        'thread.viewVideo',
        'viewThreads',
      ].sort(),
    );
    const member = await t.get<GroupData>('/api/group.resource.v2?id=10&include=permission', t.admin);
    expect(member.Data.permissions).toEqual(
      expect.arrayContaining([
        'createThread',
        'thread.reply',
        'thread.likePosts',
        'thread.favorite',
        'userFollow.create',
        'dialog.create',
        // What a fresh Discuz! Q gives its members too.
        'thread.insertPay',
        'thread.insertAttachment',
        'thread.insertRedPacket',
        'thread.insertReward',
        'thread.insertGoods',
        'thread.insertPosition',
        'thread.allowAnonymous',
        'thread.viewAttachment',
        'thread.downloadAttachment',
        'thread.viewVideo',
      ]),
    );
    expect(member.Data.permissions).not.toContain('thread.insertVideo');
    expect(member.Data.permissions).not.toContain('thread.insertAudio');
    const bare = await t.get<GroupData>('/api/group.resource.v2?id=7', t.admin);
    expect(bare.Data.permissions).toBeUndefined();
  });

  it('answers -4004 for a missing group and -4001 for a bad id', async () => {
    expect((await t.get('/api/group.resource.v2?id=999', t.admin)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/group.resource.v2?id=abc', t.admin)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/group.resource.v2', t.admin)).Code).toBe(Code.INVALID_PARAMETER);
  });
});

describe('permission.v2', () => {
  it('replaces the whole list, and the change counts from the next request', async () => {
    const guestForum = async () => (await t.get<Forum>('/api/v3/forum')).Data;
    expect((await guestForum()).other.canViewThreads).toBe(true);

    const res = await t.post('/api/permission.v2', { groupId: 7, permissions: ['viewPosts'] }, t.admin);
    expect(res).toMatchObject({ Code: 0, Data: { groupId: 7, permissions: ['thread.viewPosts'] } });
    expect((await guestForum()).other.canViewThreads).toBe(false);
    expect((await guestForum()).permissions).toEqual(['thread.viewPosts']);

    // A grant in one category still shows the Discover link.
    await t.post(
      '/api/permission.v2',
      { groupId: 7, permissions: ['category3.viewThreads', 'category3.thread.reply'] },
      t.admin,
    );
    const scoped = await guestForum();
    expect(scoped.permissions).toEqual(['category3.thread.reply', 'category3.viewThreads']);
    expect(scoped.other.canViewThreads).toBe(true);

    await t.post('/api/permission.v2', { groupId: 7, permissions: ['viewThreads', 'thread.viewPosts'] }, t.admin);
    expect((await guestForum()).other.canViewThreads).toBe(true);
  });

  it('takes a member permission away at once', async () => {
    const u = await buildUser(t);
    const forum = async () => (await t.get<Forum>('/api/v3/forum', u.token)).Data.other;
    expect((await forum()).canCreateThread).toBe(true);
    const before = (await t.get<GroupData>('/api/group.resource.v2?id=10&include=permission', t.admin)).Data
      .permissions!;
    await t.post(
      '/api/permission.v2',
      { groupId: 10, permissions: before.filter((p) => p !== 'createThread') },
      t.admin,
    );
    expect((await forum()).canCreateThread).toBe(false);
    await t.post('/api/permission.v2', { groupId: 10, permissions: before }, t.admin);
    expect((await forum()).canCreateThread).toBe(true);
  });

  it.each([
    ['an unknown key', { groupId: 10, permissions: ['launchRockets'] }, 'permissions.0'],
    ['a category grant of a global-only key', { groupId: 10, permissions: ['category2.cash.create'] }, 'permissions.0'],
    ['a string groupId', { groupId: '10', permissions: [] }, 'groupId'],
    ['permissions not an array', { groupId: 10, permissions: 'viewThreads' }, 'permissions'],
    ['the administrator group', { groupId: 1, permissions: [] }, 'groupId'],
  ])('refuses %s with -4001 and keeps the list', async (_name, body, field) => {
    const before = (await t.get<GroupData>('/api/group.resource.v2?id=10&include=permission', t.admin)).Data
      .permissions;
    const res = await t.post('/api/permission.v2', body, t.admin);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
    const after = (await t.get<GroupData>('/api/group.resource.v2?id=10&include=permission', t.admin)).Data.permissions;
    expect(after).toEqual(before);
  });

  it('answers -4004 for a missing group', async () => {
    expect((await t.post('/api/permission.v2', { groupId: 404, permissions: [] }, t.admin)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
  });
});

describe('group.permission.list', () => {
  it("answers the viewer's group and its permissions, site-wide and per category, in the family's shape", async () => {
    const category = await t.buildCategory();
    const other = await t.buildCategory();
    const member = await t.buildMember({ nickname: '组员' });
    const groupId = await t.buildGroup(
      ['thread.favorite', 'viewThreads', `category${category}.thread.reply`, 'createThreadWithCaptcha'],
      [member],
    );
    const res = await t.get<GroupPermissionList>('/api/v3/group.permission.list', member.token);
    expect(res.Code).toBe(0);
    const group = await t.get<{ name: string }>(`/api/group.resource.v2?id=${groupId}`, t.admin);
    expect(res.Data.myGroup).toEqual({
      nickname: '组员',
      avatar: '',
      groupName: group.Data.name,
      createdAt: expect.any(String),
    });
    const { general, ...perCategory } = res.Data.myPermissons;
    expect(Object.keys(general)).toHaveLength(12);
    expect(general).toMatchObject({
      'thread.favorite': true,
      'thread.sticky': false,
      createThreadWithCaptcha: true,
      'cash.create': false,
    });
    expect(Object.keys(perCategory)).toHaveLength(20);
    expect(perCategory['thread.viewThreads']).toMatchObject({ [category]: true, [other]: true });
    expect(perCategory['thread.reply']).toMatchObject({ [category]: true, [other]: false });
    expect(perCategory['thread.insertImage']).toMatchObject({ [category]: false });

    const admin = await t.get<GroupPermissionList>('/api/v3/group.permission.list', t.admin);
    expect(admin.Data.myPermissons['thread.hide']).toMatchObject({ [category]: true, [other]: true });
    expect(admin.Data.myPermissons.general).toMatchObject({ 'thread.sticky': true, createThreadWithCaptcha: false });
  });

  it('refuses guests', async () => {
    const res = await t.get('/api/v3/group.permission.list');
    expect(res.Code).toBe(Code.JUMP_TO_LOGIN);
  });
});
