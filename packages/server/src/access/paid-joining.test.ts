import { Code, OrderStatus, OrderType, type Forum } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';
import { isOpenToUnpaid, refuseOtherOrders } from './paid-joining.js';

const t = useTestServer();

const setMode = async (siteMode: 'pay' | 'public') => {
  const res = await t.post(
    '/api/settings.v2',
    {
      data: [
        { key: 'siteMode', value: siteMode, tag: 'default' },
        { key: 'sitePrice', value: '10.00', tag: 'default' },
        { key: 'siteExpire', value: 30, tag: 'default' },
      ],
    },
    t.admin,
  );
  expect(res.Code).toBe(0);
};
const userRow = (id: number) =>
  t.app.ctx.db.selectFrom('users').select(['paidAt', 'paidUntil']).where('id', '=', id).executeTakeFirstOrThrow();
const setPaidUntil = (id: number, paidUntil: string | null) =>
  t.app.ctx.db.updateTable('users').set({ paidUntil }).where('id', '=', id).execute();
const threads = (token: string) => t.get('/api/v3/thread.list', token);
const forumUser = async (token: string) => (await t.get<Forum>('/api/v3/forum', token)).Data.user;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('paid joining (siteMode pay)', () => {
  it('a member who joined while the site was free never pays', async () => {
    const early = await buildUser(t);
    expect((await userRow(early.id)).paidUntil).toBeNull();
    await setMode('pay');
    try {
      expect((await threads(early.token)).Code).toBe(0);
      expect(await forumUser(early.token)).toMatchObject({ paid: true, paidUntil: null });
    } finally {
      await setMode('public');
    }
  });

  it('stops a member who registered on the paid site until they pay, then until it runs out', async () => {
    await setMode('pay');
    try {
      const before = new Date().toISOString();
      const u = await buildUser(t);
      const registered = await userRow(u.id);
      expect(registered.paidUntil! >= before).toBe(true);

      // Everything but what paying and leaving take answers -3006.
      const refused = await threads(u.token);
      expect(refused.Code).toBe(Code.JUMP_TO_PAY_SITE);
      expect(refused.Message).not.toBe('');
      for (const [method, url] of [
        ['POST', '/api/v3/thread.create'],
        ['GET', `/api/v3/user?userId=${u.id}`],
        ['GET', '/api/v3/notification'],
        ['GET', '/api/v3/order.list'],
      ] as const) {
        const res = await t.call(method, url, { token: u.token, body: method === 'POST' ? {} : undefined });
        expect(res.body.Code, url).toBe(Code.JUMP_TO_PAY_SITE);
      }
      // The forum call answers, telling the web app to send them to pay; the site information too.
      expect(await forumUser(u.token)).toMatchObject({ userId: u.id, paid: false, paidUntil: registered.paidUntil });
      expect((await t.get('/api/siteinfo.v2', u.token)).Code).toBe(0);

      // Paid (what the orders module does when the joining fee's order is paid): readable again.
      const at = new Date().toISOString();
      await t.app.ctx.db
        .insertInto('orders')
        .values({
          orderSn: `PJ${process.pid}${Date.now()}`,
          userId: u.id,
          payeeId: null,
          type: OrderType.REGISTER,
          status: OrderStatus.PAID,
          amountCents: 1000,
          threadId: null,
          groupId: null,
          paymentType: 20,
          createdAt: at,
          updatedAt: at,
          expiresAt: at,
          paidAt: at,
        })
        .execute();
      await t.app.ctx.db
        .updateTable('users')
        .set({ paidAt: at, paidUntil: inDays(30) })
        .where('id', '=', u.id)
        .execute();
      expect((await threads(u.token)).Code).toBe(0);
      expect(await forumUser(u.token)).toMatchObject({ paid: true });

      // Run out: -3006 again.
      await setPaidUntil(u.id, inDays(-1));
      expect((await threads(u.token)).Code).toBe(Code.JUMP_TO_PAY_SITE);
      expect(await forumUser(u.token)).toMatchObject({ paid: false });

      // Logging out is allowed.
      expect((await t.post('/api/v3/users/logout', {}, u.token)).Code).toBe(0);
    } finally {
      await setMode('public');
    }
  });

  it('never stops administrators, and a site back to public is free for all', async () => {
    await setMode('pay');
    const u = await buildUser(t);
    const adminId = (await forumUser(t.admin))!.userId;
    await setPaidUntil(adminId, inDays(-1));
    try {
      expect((await threads(t.admin)).Code).toBe(0);
      expect(await forumUser(t.admin)).toMatchObject({ paid: true });
      expect((await threads(u.token)).Code).toBe(Code.JUMP_TO_PAY_SITE);
    } finally {
      await setMode('public');
      await setPaidUntil(adminId, null);
    }
    expect((await threads(u.token)).Code).toBe(0);
    expect(await forumUser(u.token)).toMatchObject({ paid: true });
    // Registering on a public site owes nothing.
    const later = await buildUser(t);
    expect((await userRow(later.id)).paidUntil).toBeNull();
  });
});

describe('what a member who owes the joining fee may call', () => {
  it('paying, the wallet, the providers, leaving and reading the site', () => {
    for (const url of [
      '/api/v3/forum',
      '/api/siteinfo.v2',
      '/api/v3/users/logout',
      '/api/v3/order.create',
      '/api/v3/trade/pay/order',
      '/api/v3/order.detail',
      '/api/v3/pay/methods',
      '/api/v3/pay/notify/alipay',
      '/api/v3/pay/sandbox/complete',
      '/api/v3/wallet/user',
      '/api/v3/users/pay-password/reset',
    ]) {
      expect(isOpenToUnpaid(url), url).toBe(true);
    }
    for (const url of ['/api/v3/thread.list', '/api/v3/order.list', '/api/v3/wallet/cash', '/api/*']) {
      expect(isOpenToUnpaid(url), url).toBe(false);
    }
  });

  it('order.create of the joining fee (type 1) only', async () => {
    const request = (type: unknown, owes = true) =>
      ({
        owesJoiningFee: owes,
        routeOptions: { url: '/api/v3/order.create' },
        body: { type },
      }) as unknown as FastifyRequest;
    await expect(refuseOtherOrders(request(1))).resolves.toBeUndefined();
    for (const type of [2, 3, 4, 30, undefined]) {
      await expect(refuseOtherOrders(request(type))).rejects.toMatchObject({ code: Code.JUMP_TO_PAY_SITE });
    }
    await expect(refuseOtherOrders(request(3, false))).resolves.toBeUndefined();
  });
});
