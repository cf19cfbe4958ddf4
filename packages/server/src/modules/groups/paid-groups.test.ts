import { GroupId, type Forum, type GroupData, type PaidGroupItem, type UserProfile } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { memberPermissions } from '../../test/factories.js';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();
let gold: number;

const createGroup = async (body: Record<string, unknown>) => {
  const res = await t.post<GroupData>('/api/groups.create.v2', body, t.admin);
  expect(res.Code).toBe(0);
  return res.Data.id;
};
const paidList = async (token?: string) => {
  const res = await t.get<PaidGroupItem[]>('/api/v3/groups.paid.list', token);
  expect(res.Code).toBe(0);
  return res.Data;
};
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  gold = await createGroup({ name: 'Gold', isPaid: true, fee: 12.5, days: 30 });
  await createGroup({ name: 'Free of charge', isPaid: true, fee: 0, days: 30 });
  await createGroup({ name: 'Not for sale', isPaid: false, fee: 8, days: 30 });
  await t.post('/api/permission.v2', { groupId: gold, permissions: ['viewThreads'] }, t.admin);
});

describe('groups.paid.list', () => {
  it('lists the groups on sale (paid, with a fee) to anyone, guests included', async () => {
    const list = await paidList();
    expect(list).toEqual([{ id: gold, name: 'Gold', fee: '12.50', days: 30, held: false, expiresAt: null }]);
  });
});

describe('a paid group membership that runs out', () => {
  it('counts while it lasts, and leaves the member in the default group once expired', async () => {
    const u = await buildUser(t);
    const db = t.app.ctx.db;
    const until = inDays(30);
    // What a paid group purchase does: the member joins the group until a time (here out of the member group too).
    await db.deleteFrom('groupUser').where('userId', '=', u.id).execute();
    await db.insertInto('groupUser').values({ userId: u.id, groupId: gold, expiresAt: until }).execute();

    expect(await paidList(u.token)).toEqual([expect.objectContaining({ id: gold, held: true, expiresAt: until })]);
    const during = await t.get<Forum>('/api/v3/forum', u.token);
    expect(during.Data.user?.groups).toEqual([{ id: gold, name: 'Gold' }]);
    expect(during.Data.permissions).toEqual(['viewThreads']);

    await db
      .updateTable('groupUser')
      .set({ expiresAt: inDays(-1) })
      .where('userId', '=', u.id)
      .where('groupId', '=', gold)
      .execute();
    const after = await t.get<Forum>('/api/v3/forum', u.token);
    expect(after.Data.user?.groups).toEqual([{ id: GroupId.MEMBER, name: expect.any(String) }]);
    expect(after.Data.permissions).toEqual([...(await memberPermissions(t, t.admin))].sort());
    const profile = await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, u.token);
    expect(profile.Data.group).toMatchObject({ id: GroupId.MEMBER });
    expect(await paidList(u.token)).toEqual([expect.objectContaining({ id: gold, held: false, expiresAt: null })]);
    // The member's own abilities are back: members may create threads.
    const created = await t.post(
      '/api/v3/thread.create',
      { categoryId: 1, title: 'Back to member', content: { text: 'Hello' } },
      u.token,
    );
    expect(created.Code).toBe(0);
  });
});
