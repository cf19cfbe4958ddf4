import { Code, type GroupData, type UpgradeGroupItem } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();
let silver: number;
let gold: number;

const createGroup = async (body: Record<string, unknown>) => {
  const res = await t.post<GroupData>('/api/groups.create.v2', body, t.admin);
  expect(res.Code).toBe(0);
  return res.Data.id;
};
const upgradeList = async (token: string) => {
  // The family's client calls it at /apiv3/.
  const res = await t.get<UpgradeGroupItem[]>('/apiv3/upgrade.group', token);
  expect(res.Code).toBe(0);
  return res.Data;
};

beforeAll(async () => {
  gold = await createGroup({ name: 'Gold', isPaid: true, fee: 30, days: 365, color: '#fc0' });
  silver = await createGroup({ name: 'Silver', isPaid: true, fee: 12.5, days: 30 });
  await createGroup({ name: 'Not for sale', isPaid: false, fee: 8, days: 30 });
});

describe('GET /apiv3/upgrade.group', () => {
  it('lists the paid groups cheapest first in the family’s fields, every one an upgrade for a plain member', async () => {
    const member = await t.buildMember();
    expect(await upgradeList(member.token)).toEqual([
      {
        groupId: silver,
        name: 'Silver',
        color: '',
        icon: '',
        fee: '12.50',
        amount: 12.5,
        level: 1,
        days: 30,
        description: '',
        notice: '',
        button: 2,
      },
      expect.objectContaining({
        groupId: gold,
        name: 'Gold',
        color: '#fc0',
        fee: '30.00',
        amount: 30,
        level: 2,
        button: 2,
      }),
    ]);
  });

  it('marks the group the member holds (1), those above it (2) and below it (0)', async () => {
    const member = await t.buildMember();
    const db = t.app.ctx.db;
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await db.insertInto('groupUser').values({ userId: member.id, groupId: gold, expiresAt: until }).execute();
    expect((await upgradeList(member.token)).map((g) => [g.groupId, g.button])).toEqual([
      [silver, 0],
      [gold, 1],
    ]);
    // An expired membership no longer counts.
    await db
      .updateTable('groupUser')
      .set({ expiresAt: '2000-01-01T00:00:00.000Z' })
      .where('userId', '=', member.id)
      .where('groupId', '=', gold)
      .execute();
    expect((await upgradeList(member.token)).map((g) => g.button)).toEqual([2, 2]);
  });

  it('asks a guest to log in, at both spellings', async () => {
    expect((await t.get('/apiv3/upgrade.group')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.get('/api/v3/upgrade.group')).Code).toBe(Code.JUMP_TO_LOGIN);
  });
});
