import { Code, GroupId, type AdminUserDetail, type AdminUserItem, type Page, type SessionData } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let adminId: number;

beforeAll(async () => {
  t = await startTestServer();
  const session = await t.post<SessionData>('/api/v3/users/username.login', ADMIN);
  admin = session.Data.accessToken;
  adminId = session.Data.userId;
});
afterAll(async () => {
  await t.close();
});

/** What the list shows of a user (the detail adds the sign-in answers). */
const user = async (id: number) => {
  const { signinFields: _answers, ...item } = (await t.get<AdminUserDetail>(`/api/backAdmin/user?userId=${id}`, admin))
    .Data;
  return item as AdminUserItem;
};
const update = (body: unknown, token = admin) => t.post<AdminUserItem>('/api/backAdmin/users/update.user', body, token);

describe('backAdmin/users and backAdmin/user', () => {
  it('lists users newest first in the family list shape, and searches by part of the name', async () => {
    const a = await buildUser(t, { username: 'Searchable_A', nickname: '搜索测试甲' });
    const b = await buildUser(t, { username: 'searchable_b', nickname: '乙' });
    await buildUser(t, { username: 'other_name' });
    const all = await t.get<Page<AdminUserItem>>('/api/backAdmin/users?perPage=2', admin);
    expect(all.Code).toBe(0);
    expect(Object.keys(all.Data).sort()).toEqual(['currentPage', 'pageData', 'perPage', 'totalCount', 'totalPage']);
    expect(all.Data.pageData).toHaveLength(2);
    expect(all.Data.totalPage).toBe(Math.ceil(all.Data.totalCount / 2));
    expect(all.Data.pageData[0]!.userId).toBeGreaterThan(all.Data.pageData[1]!.userId);

    const byName = await t.get<Page<AdminUserItem>>('/api/backAdmin/users?filter[username]=SEARCHABLE', admin);
    expect(byName.Data.pageData.map((u) => u.userId)).toEqual([b.id, a.id]);
    expect(byName.Data.totalCount).toBe(2);
    const byNick = await t.get<Page<AdminUserItem>>(
      `/api/backAdmin/users?filter[nickname]=${encodeURIComponent('测试')}`,
      admin,
    );
    expect(byNick.Data.pageData.map((u) => u.userId)).toEqual([a.id]);
    // LIKE wildcards in the input are literal.
    const wild = await t.get<Page<AdminUserItem>>('/api/backAdmin/users?filter[username]=%25', admin);
    expect(wild.Data.totalCount).toBe(0);
    const underscore = await t.get<Page<AdminUserItem>>('/api/backAdmin/users?filter[username]=e_a', admin);
    expect(underscore.Data.pageData.map((u) => u.userId)).toEqual([a.id]);

    const admins = await t.get<Page<AdminUserItem>>(
      `/api/backAdmin/users?filter[groupId]=${GroupId.ADMINISTRATOR}`,
      admin,
    );
    expect(admins.Data.pageData.map((u) => u.userId)).toEqual([adminId]);
    const one = await t.get<Page<AdminUserItem>>(`/api/backAdmin/users?filter[id]=${a.id}`, admin);
    expect(one.Data.pageData).toHaveLength(1);
  });

  it('reads one user with its groups', async () => {
    const u = await buildUser(t, { nickname: '读者' });
    const res = await t.get<AdminUserDetail>(`/api/backAdmin/user?userId=${u.id}`, admin);
    expect(res).toMatchObject({
      Code: 0,
      Data: { userId: u.id, username: u.username, nickname: '读者', status: 0, groups: [{ id: 10, name: '普通会员' }] },
    });
    expect(JSON.stringify(res.Data)).not.toMatch(/password/i);
    expect(res.Data.signinFields).toEqual([]);
  });

  it.each([
    ['/api/backAdmin/user?userId=99999', Code.RESOURCE_NOT_FOUND],
    ['/api/backAdmin/user?userId=abc', Code.INVALID_PARAMETER],
    ['/api/backAdmin/user', Code.INVALID_PARAMETER],
    ['/api/backAdmin/users?perPage=51', Code.INVALID_PARAMETER],
    ['/api/backAdmin/users?filter[status]=x', Code.INVALID_PARAMETER],
    ['/api/backAdmin/users?filter[groupId]=99999999999', Code.INVALID_PARAMETER],
  ])('answers %s with %i', async (url, code) => {
    expect((await t.get(url, admin)).Code).toBe(code);
  });
});

describe('backAdmin/users/update.user', () => {
  it("changes a user's groups, which counts from the next request", async () => {
    const u = await buildUser(t);
    const create = () =>
      t.post('/api/v3/thread.create', { categoryId: 1, title: 't', content: { text: 'b' } }, u.token);
    expect((await create()).Code).toBe(0);
    const res = await update({ id: u.id, groupIds: [GroupId.FREE_TRIAL] });
    expect(res.Code).toBe(0);
    expect(res.Data.groups).toEqual([{ id: GroupId.FREE_TRIAL, name: '免费试用' }]);
    // The trial group cannot create threads.
    expect((await create()).Code).toBe(Code.UNAUTHORIZED);
    expect((await update({ id: u.id, groupId: GroupId.MEMBER })).Data.groups.map((g) => g.id)).toEqual([10]);
    expect((await create()).Code).toBe(0);
  });

  it('bans with a reason (-4009 from the next request, at login too) and unbans', async () => {
    const u = await buildUser(t);
    expect((await t.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
    const res = await update({ id: u.id, status: 1, reason: '发广告' });
    expect(res.Data).toMatchObject({ status: 1, rejectReason: '发广告' });
    const refused = await t.get<{ reason: string }>('/api/v3/unreadnotification', u.token);
    expect(refused).toMatchObject({ Code: Code.USER_BANNED, Data: { reason: '发广告' } });
    expect(
      (await t.post('/api/v3/thread.create', { categoryId: 1, title: 't', content: { text: 'b' } }, u.token)).Code,
    ).toBe(Code.USER_BANNED);
    expect((await t.post('/api/v3/users/username.login', { username: u.username, password: u.password })).Code).toBe(
      Code.USER_BANNED,
    );
    const unbanned = await update({ id: u.id, status: 0 });
    expect(unbanned.Data).toMatchObject({ status: 0, rejectReason: '' });
    expect((await t.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
  });

  it.each([
    ['an unknown user', () => ({ id: 99999, status: 1 }), Code.RESOURCE_NOT_FOUND],
    ['an unknown group', (id: number) => ({ id, groupIds: [99999] }), Code.RESOURCE_NOT_FOUND],
    ['the guest group', (id: number) => ({ id, groupIds: [GroupId.GUEST] }), Code.INVALID_PARAMETER],
    ['no group', (id: number) => ({ id, groupIds: [] }), Code.INVALID_PARAMETER],
    ['status 2', (id: number) => ({ id, status: 2 }), Code.INVALID_PARAMETER],
    ['status as text', (id: number) => ({ id, status: '1' }), Code.INVALID_PARAMETER],
    ['groupId and groupIds', (id: number) => ({ id, groupId: 10, groupIds: [8] }), Code.INVALID_PARAMETER],
    ['a long reason', (id: number) => ({ id, status: 1, reason: 'x'.repeat(201) }), Code.INVALID_PARAMETER],
    ['no id', () => ({ status: 1 }), Code.INVALID_PARAMETER],
  ])('refuses %s and changes nothing', async (_n, body, code) => {
    const u = await buildUser(t);
    const before = await user(u.id);
    expect((await update(body(u.id))).Code).toBe(code);
    expect(await user(u.id)).toEqual(before);
  });

  it('keeps an administrator from locking themselves out or banning another administrator', async () => {
    const before = await user(adminId);
    expect((await update({ id: adminId, status: 1 })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ id: adminId, groupIds: [GroupId.MEMBER] })).Code).toBe(Code.INVALID_PARAMETER);
    expect(await user(adminId)).toEqual(before);
    const other = await buildUser(t);
    expect((await update({ id: other.id, groupIds: [GroupId.ADMINISTRATOR] })).Code).toBe(0);
    expect((await update({ id: other.id, status: 1 })).Code).toBe(Code.INVALID_PARAMETER);
    // Taken out of the administrator group and banned in one call works.
    expect((await update({ id: other.id, groupIds: [GroupId.MEMBER], status: 1 })).Data.status).toBe(1);
  });
});

describe('backAdmin/users/examine', () => {
  const setSite = (value: boolean) =>
    t.post('/api/settings.v2', { data: [{ key: 'registerValidate', value, tag: 'default' }] }, admin);

  it('approves, rejects with a reason, or ignores users under review', async () => {
    await setSite(true);
    const [a, b, c] = [await buildUser(t), await buildUser(t), await buildUser(t)];
    await setSite(false);
    expect((await user(a.id)).status).toBe(2);
    expect((await t.get('/api/v3/unreadnotification', a.token)).Code).toBe(Code.JUMP_TO_AUDIT);
    const res = await t.post<AdminUserItem[]>(
      '/api/backAdmin/users/examine',
      {
        data: [
          { id: a.id, status: 0 },
          { id: b.id, status: 3, rejectReason: '资料不全' },
          { id: c.id, status: 4 },
        ],
      },
      admin,
    );
    expect(res.Code).toBe(0);
    expect(res.Data.map((u) => u.status)).toEqual([0, 3, 4]);
    expect((await t.get('/api/v3/unreadnotification', a.token)).Code).toBe(0);
    expect(await t.get('/api/v3/unreadnotification', b.token)).toMatchObject({
      Code: Code.VALIDATE_REJECT,
      Data: { reason: '资料不全' },
    });
    expect((await t.get('/api/v3/unreadnotification', c.token)).Code).toBe(Code.VALIDATE_IGNORE);
  });

  it('changes nothing when one of the users is not under review', async () => {
    await setSite(true);
    const pending = await buildUser(t);
    await setSite(false);
    const normal = await buildUser(t);
    const res = await t.post(
      '/api/backAdmin/users/examine',
      {
        data: [
          { id: pending.id, status: 0 },
          { id: normal.id, status: 3 },
        ],
      },
      admin,
    );
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field: 'data.1.id' });
    expect((await user(pending.id)).status).toBe(2);
    expect((await user(normal.id)).status).toBe(0);
    for (const body of [{ data: [] }, { data: [{ id: pending.id, status: 1 }] }, { data: [{ id: pending.id }] }, {}]) {
      expect((await t.post('/api/backAdmin/users/examine', body, admin)).Code).toBe(Code.INVALID_PARAMETER);
    }
    expect((await t.post('/api/backAdmin/users/examine', { data: [{ id: 99999, status: 0 }] }, admin)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    expect((await user(pending.id)).status).toBe(2);
  });
});

describe('guests and members are refused and nothing changes', () => {
  it.each([
    ['GET', '/api/backAdmin/users', undefined],
    ['GET', '/api/backAdmin/user?userId=1', undefined],
    ['POST', '/api/backAdmin/users/update.user', 'ban'],
    ['POST', '/api/backAdmin/users/examine', 'examine'],
  ])('%s %s', async (method, url, kind) => {
    const member = await buildUser(t);
    const target = await buildUser(t);
    const body =
      kind === 'ban'
        ? { id: target.id, status: 1 }
        : kind === 'examine'
          ? { data: [{ id: target.id, status: 3 }] }
          : undefined;
    const before = await user(target.id);
    expect((await t.call(method as 'GET', url, { body })).body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.call(method as 'GET', url, { body, token: member.token })).body.Code).toBe(Code.UNAUTHORIZED);
    expect(await user(target.id)).toEqual(before);
  });
});
