import { Code, GroupId, type Forum, type GroupData } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildGroup, memberPermissions, setGroupPermissions } from '../../test/factories.js';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

const groups = async () => (await t.get<GroupData[]>('/api/groups.list.v2', t.admin)).Data;
const groupsOf = async (token: string) =>
  (await t.get<Forum>('/api/v3/forum', token)).Data.user!.groups.map((g) => g.id);

describe('groups.create.v2', () => {
  it('creates a group with no permissions', async () => {
    const res = await t.post<GroupData>(
      '/api/groups.create.v2',
      { name: '版主', type: 'moderator', color: '#ff0000', icon: 'star', isPaid: true, fee: 9.9, days: 30 },
      t.admin,
    );
    expect(res.Code).toBe(0);
    expect(res.Data).toMatchObject({
      name: '版主',
      type: 'moderator',
      color: '#ff0000',
      icon: 'star',
      isPaid: true,
      fee: 9.9,
      days: 30,
      default: false,
    });
    expect((await groups()).map((g) => g.id)).toContain(res.Data.id);
    const read = await t.get<GroupData>(`/api/group.resource.v2?id=${res.Data.id}&include=permission`, t.admin);
    expect(read.Data.permissions).toEqual([]);
    // Only the name is required.
    expect((await t.post('/api/groups.create.v2', { name: 'bare' }, t.admin)).Code).toBe(0);
  });

  it('refuses a taken name whatever its case', async () => {
    await t.post('/api/groups.create.v2', { name: 'Editors' }, t.admin);
    const before = (await groups()).length;
    expect((await t.post('/api/groups.create.v2', { name: 'editors' }, t.admin)).Code).toBe(Code.RESOURCE_EXIST);
    expect((await groups()).length).toBe(before);
  });

  it.each([
    ['no name', {}, 'name'],
    ['an empty name', { name: '  ' }, 'name'],
    ['a long name', { name: '名'.repeat(31) }, 'name'],
    ['a negative fee', { name: 'x1', fee: -1 }, 'fee'],
    ['a fee with 3 decimals', { name: 'x2', fee: 1.005 }, 'fee'],
    ['days as text', { name: 'x3', days: '30' }, 'days'],
    ['a control character', { name: 'a\u0000b' }, 'name'],
  ])('refuses %s with -4001 and creates nothing', async (_n, body, field) => {
    const before = (await groups()).length;
    const res = await t.post('/api/groups.create.v2', body, t.admin);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
    expect((await groups()).length).toBe(before);
  });
});

describe('groups/batchupdate.v2', () => {
  it('changes several groups at once, swapping names included', async () => {
    const a = (await t.post<GroupData>('/api/groups.create.v2', { name: 'alpha' }, t.admin)).Data;
    const b = (await t.post<GroupData>('/api/groups.create.v2', { name: 'beta' }, t.admin)).Data;
    const res = await t.post<GroupData[]>(
      '/api/groups/batchupdate.v2',
      {
        data: [
          { id: a.id, name: 'beta', type: 't1', scale: 5, isSubordinate: true, isCommission: true },
          { id: b.id, name: 'alpha', type: 't2', scale: 0 },
        ],
      },
      t.admin,
    );
    expect(res.Code).toBe(0);
    const after = await groups();
    expect(after.find((g) => g.id === a.id)).toMatchObject({
      name: 'beta',
      type: 't1',
      scale: 5,
      isSubordinate: true,
      isCommission: true,
    });
    expect(after.find((g) => g.id === b.id)).toMatchObject({
      name: 'alpha',
      type: 't2',
      scale: 0,
      isSubordinate: false,
    });
  });

  it('applies nothing when one entry fails', async () => {
    const a = (await t.post<GroupData>('/api/groups.create.v2', { name: 'gamma' }, t.admin)).Data;
    const before = await groups();
    const missing = await t.post(
      '/api/groups/batchupdate.v2',
      {
        data: [
          { id: a.id, name: 'gamma2', type: '', scale: 1 },
          { id: 9999, name: 'x', type: '', scale: 1 },
        ],
      },
      t.admin,
    );
    expect(missing.Code).toBe(Code.RESOURCE_NOT_FOUND);
    const clash = await t.post(
      '/api/groups/batchupdate.v2',
      { data: [{ id: a.id, name: '普通会员', type: '', scale: 1 }] },
      t.admin,
    );
    expect(clash.Code).toBe(Code.RESOURCE_EXIST);
    expect(await groups()).toEqual(before);
  });

  it('keeps the type of the groups a site is seeded with, and lets their other fields change', async () => {
    const before = await groups();
    const seeded = before.filter((g) => Object.values(GroupId).includes(g.id as never));
    expect(seeded.map((g) => [g.id, g.type])).toEqual([
      [GroupId.ADMINISTRATOR, 'admin'],
      [GroupId.UNPAID, 'unpaid'],
      [GroupId.GUEST, 'guest'],
      [GroupId.FREE_TRIAL, 'trial'],
      [GroupId.MEMBER, 'member'],
    ]);
    for (const group of seeded) {
      const item = { id: group.id, name: group.name, scale: group.scale };
      const res = await t.post('/api/groups/batchupdate.v2', { data: [{ ...item, type: `${group.type}x` }] }, t.admin);
      expect(res).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'data.0.type' } });
      expect(res.Message).toBe('系统和预置用户组的类型不能修改');
    }
    expect(await groups()).toEqual(before);
    const guest = seeded.find((g) => g.id === GroupId.GUEST)!;
    const same = { id: guest.id, name: guest.name, type: guest.type, scale: 2 };
    expect((await t.post('/api/groups/batchupdate.v2', { data: [same] }, t.admin)).Code).toBe(0);
    expect((await groups()).find((g) => g.id === GroupId.GUEST)).toMatchObject({ type: 'guest', scale: 2 });
    await t.post('/api/groups/batchupdate.v2', { data: [{ ...same, scale: guest.scale }] }, t.admin);
  });

  it.each([
    ['no data', {}],
    ['empty data', { data: [] }],
    ['no scale', { data: [{ id: 10, name: 'm', type: '' }] }],
    ['scale over 10', { data: [{ id: 10, name: 'm', type: '', scale: 11 }] }],
    ['a string id', { data: [{ id: '10', name: 'm', type: '', scale: 1 }] }],
    [
      'an id twice',
      {
        data: [
          { id: 10, name: 'm', type: '', scale: 1 },
          { id: 10, name: 'n', type: '', scale: 1 },
        ],
      },
    ],
  ])('refuses %s with -4001', async (_n, body) => {
    const before = await groups();
    expect((await t.post('/api/groups/batchupdate.v2', body, t.admin)).Code).toBe(Code.INVALID_PARAMETER);
    expect(await groups()).toEqual(before);
  });
});

describe('groups.batchdelete.v2', () => {
  it('deletes groups and moves their members to the default group', async () => {
    const u1 = await buildUser(t);
    const u2 = await buildUser(t);
    const g1 = await buildGroup(t, t.admin, ['viewThreads'], [u1.id]);
    const g2 = await buildGroup(t, t.admin, ['viewThreads'], [u2.id]);
    expect(await groupsOf(u1.token)).toEqual([g1]);
    const res = await t.post<{ deleted: number[]; movedUsers: number }>(
      '/api/groups.batchdelete.v2',
      { ids: `${g1},${g2}` },
      t.admin,
    );
    expect(res).toMatchObject({ Code: 0, Data: { deleted: [g1, g2], movedUsers: 2 } });
    expect((await groups()).map((g) => g.id)).not.toContain(g1);
    expect(await groupsOf(u1.token)).toEqual([GroupId.MEMBER]);
    expect(await groupsOf(u2.token)).toEqual([GroupId.MEMBER]);
    const perms = await t.server.database.db
      .selectFrom('groupPermission')
      .selectAll()
      .where('groupId', 'in', [g1, g2])
      .execute();
    expect(perms).toEqual([]);
  });

  it.each([
    ['the administrator group', '1', Code.INVALID_PARAMETER],
    ['the guest group', '7', Code.INVALID_PARAMETER],
    ['the default group', '10', Code.INVALID_PARAMETER],
    ['a missing group', '99999', Code.RESOURCE_NOT_FOUND],
  ] as const)('refuses %s and deletes nothing of the batch', async (_n, id, code) => {
    const g = (await t.post<GroupData>('/api/groups.create.v2', { name: `keep ${id}` }, t.admin)).Data;
    const res = await t.post('/api/groups.batchdelete.v2', { ids: `${g.id},${id}` }, t.admin);
    expect(res.Code).toBe(code);
    expect((await groups()).map((x) => x.id)).toContain(g.id);
  });

  it.each([['a,b'], [''], ['1;2'], ['-3'], [[1, 2]]])('refuses ids %j with -4001', async (ids) => {
    const before = await groups();
    const res = await t.post('/api/groups.batchdelete.v2', { ids }, t.admin);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect((res.Data as { field?: string }).field?.startsWith('ids')).toBe(true);
    expect(await groups()).toEqual(before);
  });
});

describe('permission changes count from the next request', () => {
  it('refuses thread.create as soon as createThread is taken from the group, and allows it again', async () => {
    const u = await buildUser(t);
    const before = await memberPermissions(t, t.admin);
    const create = () =>
      t.post('/api/v3/thread.create', { categoryId: 1, title: 'hello', content: { text: 'body' } }, u.token);
    expect((await create()).Code).toBe(0);
    await setGroupPermissions(
      t,
      t.admin,
      GroupId.MEMBER,
      before.filter((p) => p !== 'createThread'),
    );
    try {
      expect((await create()).Code).toBe(Code.UNAUTHORIZED);
    } finally {
      await setGroupPermissions(t, t.admin, GroupId.MEMBER, before);
    }
    expect((await create()).Code).toBe(0);
  });
});

describe('guests and members are refused and nothing changes', () => {
  const calls: [string, unknown][] = [
    ['/api/groups.create.v2', { name: 'hijack' }],
    ['/api/groups/batchupdate.v2', { data: [{ id: 10, name: 'hijacked', type: '', scale: 0 }] }],
    ['/api/groups.batchdelete.v2', { ids: '8' }],
  ];
  it.each(calls)('%s', async (url, body) => {
    const member = await buildUser(t);
    const before = await groups();
    expect((await t.post(url, body)).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.post(url, body, member.token)).Code).toBe(Code.UNAUTHORIZED);
    expect(await groups()).toEqual(before);
  });
});
