import { PassThrough } from 'node:stream';
import {
  OrderStatus,
  OrderType,
  type DeliveredEvent,
  type NotificationItem,
  type OrderInfo,
  type Page,
} from '@luntan/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, buildUser, newStorage, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread } from '../../test/forum-fixtures.js';
import { createOrder, recharge } from '../../test/money-fixtures.js';
import { backoffMs } from './event-bus.js';

/*
 * The domain events' outbox over HTTP on a real database: a subscriber that throws is retried and the write stands;
 * events committed by a process that stopped before delivering them are delivered by the next; two apps on one
 * database deliver each event once; a due event waits for its time.
 */

const follow = (t: TestServer, token: string, toUserId: number) => t.post('/api/v3/follow.create', { toUserId }, token);
const notices = async (t: TestServer, token: string) => {
  const res = await t.get<Page<NotificationItem>>('/api/v3/notification?perPage=50', token);
  expect(res.Code).toBe(0);
  return res.Data.pageData;
};
const deliveries = (t: TestServer, subscriber: string) =>
  t.server.database.db
    .selectFrom('eventDeliveries')
    .innerJoin('domainEvents', 'domainEvents.id', 'eventDeliveries.eventId')
    .select(['eventId', 'name', 'attempts', 'doneAt', 'lastError', 'claimedBy'])
    .where('subscriber', '=', subscriber)
    .orderBy('eventId')
    .execute();

afterEach(() => {
  vi.useRealTimers();
});

describe('a subscriber that throws', () => {
  let t: TestServer;
  const log: string[] = [];
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean)));
    t = await startTestServer({ logStream: stream });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is logged and tried again later; the write it followed stands and the other subscribers hear it', async () => {
    const heard: DeliveredEvent[] = [];
    t.app.ctx.events.subscribe('test-flaky', ['user.followed'], async (event) => {
      heard.push(event);
      if (heard.length === 1) throw new Error('the first attempt fails');
    });
    const fan = await buildUser(t);
    const star = await buildUser(t);
    vi.useFakeTimers({ toFake: ['Date'] });

    expect((await follow(t, fan.token, star.id)).Code).toBe(0);
    // The follow stands, and the notifications' subscriber told the followed member.
    const profile = await t.get<{ fansCount: number }>(`/api/v3/user?userId=${star.id}`, star.token);
    expect(profile.Data.fansCount).toBe(1);
    expect((await notices(t, star.token)).map((n) => n.type)).toEqual(['followed']);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ name: 'user.followed', payload: { userId: fan.id, followedUserId: star.id } });
    const [failed] = await deliveries(t, 'test-flaky');
    expect(failed).toMatchObject({ attempts: 1, doneAt: null, lastError: 'the first attempt fails' });
    const failure = log.map((line) => JSON.parse(line) as Record<string, unknown>).find((l) => l.subscriber);
    expect(failure).toMatchObject({ level: 50, subscriber: 'test-flaky', event: 'user.followed', attempt: 1 });

    // Not before its wait is over ...
    vi.setSystemTime(Date.now() + backoffMs(1) - 100);
    await t.app.ctx.events.drain();
    expect(heard).toHaveLength(1);
    // ... then once more, with the same event id, and it is done.
    vi.setSystemTime(Date.now() + 200);
    await t.app.ctx.events.drain();
    expect(heard).toHaveLength(2);
    expect(heard[1]).toMatchObject({ id: heard[0]!.id, attempt: 2 });
    const [done] = await deliveries(t, 'test-flaky');
    expect(done).toMatchObject({ attempts: 2, lastError: null });
    expect(done!.doneAt).not.toBeNull();
    // The notice was made once.
    expect(await notices(t, star.token)).toHaveLength(1);
  });
});

describe('a process that stops between commit and delivery', () => {
  it('leaves the events in the database, and the next start delivers them', async () => {
    const storage = newStorage();
    const first = await startTestServer({ storage });
    const fan = await buildUser(first);
    const star = await buildUser(first);
    // This process commits the follow and its event, then takes no more work (as if killed before delivering).
    first.app.ctx.events.pause();
    expect((await follow(first, fan.token, star.id)).Code).toBe(0);
    expect(await notices(first, star.token)).toEqual([]);
    const [pending] = await deliveries(first, 'notifications');
    expect(pending).toMatchObject({ name: 'user.followed', attempts: 0, doneAt: null });
    await first.close({ keep: true });

    const second = await startTestServer({ storage });
    try {
      await second.app.ctx.events.drain();
      expect((await notices(second, star.token)).map((n) => n.type)).toEqual(['followed']);
      const [done] = await deliveries(second, 'notifications');
      expect(done).toMatchObject({ attempts: 1, lastError: null });
      expect(done!.doneAt).not.toBeNull();
    } finally {
      await second.close();
    }
  });
});

describe('an event delivered again', () => {
  it('tells nobody twice (its process died after making the notices, before marking them delivered)', async () => {
    const t = await startTestServer();
    try {
      const admin = await t.login(ADMIN.username, ADMIN.password);
      const author = await buildUser(t);
      const thread = await buildThread(t, author.token, { title: '置顶候选' });
      expect((await t.post('/api/v3/threads/operate', { id: thread.threadId, isSticky: true }, admin)).Code).toBe(0);
      expect((await notices(t, author.token)).map((n) => n.title)).toEqual(['内容被置顶']);
      const [row] = (await deliveries(t, 'notifications')).filter((r) => r.name === 'thread.moderated');
      expect(row).toMatchObject({ attempts: 1 });
      // As a claim that lapsed: open again, due now.
      await t.server.database.db
        .updateTable('eventDeliveries')
        .set({ doneAt: null, nextAttemptAt: new Date(Date.now() - 1).toISOString() })
        .where('eventId', '=', row!.eventId)
        .where('subscriber', '=', 'notifications')
        .execute();
      await t.app.ctx.events.drain();
      const [again] = (await deliveries(t, 'notifications')).filter((r) => r.eventId === row!.eventId);
      expect(again).toMatchObject({ attempts: 2 });
      expect(again!.doneAt).not.toBeNull();
      expect(await notices(t, author.token)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('two apps on one database', () => {
  it('deliver each event to a subscriber once', async () => {
    const storage = newStorage();
    const a = await startTestServer({ storage });
    const b = await startTestServer({ storage });
    try {
      const heardBy: Record<string, number[]> = { a: [], b: [] };
      for (const [name, t] of [
        ['a', a],
        ['b', b],
      ] as const) {
        t.app.ctx.events.subscribe('test-once', ['user.followed'], async (event) => {
          heardBy[name]!.push(event.id);
          // A little work on the database, so the two apps' passes overlap.
          await t.server.database.db.selectFrom('users').select('id').where('id', '=', event.payload.userId).execute();
        });
      }
      const star = await buildUser(a);
      const fans = [];
      for (let i = 0; i < 8; i += 1) fans.push(await buildUser(i % 2 === 0 ? a : b));
      // The follows are written through both apps while neither delivers; then both deliver at once.
      a.app.ctx.events.pause();
      b.app.ctx.events.pause();
      for (const [i, fan] of fans.entries())
        expect((await follow(i % 2 === 0 ? a : b, fan.token, star.id)).Code).toBe(0);
      a.app.ctx.events.resume();
      b.app.ctx.events.resume();
      await Promise.all([a.app.ctx.events.drain(), b.app.ctx.events.drain(), a.app.ctx.events.drain()]);

      const rows = await deliveries(a, 'test-once');
      expect(rows).toHaveLength(8);
      const heard = [...heardBy.a!, ...heardBy.b!].sort((x, y) => x - y);
      expect(heard).toEqual(rows.map((r) => r.eventId));
      expect(rows.every((r) => r.attempts === 1 && r.doneAt !== null)).toBe(true);
      // The notifications' subscriber too: one merged notice of eight followers, not sixteen.
      const [notice] = await notices(a, star.token);
      expect(notice).toMatchObject({ type: 'followed' });
      const notified = await deliveries(a, 'notifications');
      expect(notified.filter((r) => r.name === 'user.followed').every((r) => r.attempts === 1)).toBe(true);
    } finally {
      await b.close({ keep: true });
      await a.close();
    }
  });
});

describe('a due event', () => {
  it('waits for its time, across a restart: an unpaid order expires at its expiry, a paid one does not', async () => {
    const storage = newStorage();
    const env = { PAYMENT_SANDBOX: '1' };
    const first = await startTestServer({ storage, env });
    const member = await buildUser(first);
    vi.useFakeTimers({ toFake: ['Date'] });
    const unpaid = await createOrder(first, member.token, { type: OrderType.RECHARGE, amount: '5' });
    const paid = await recharge(first, member.token, '6');
    await first.close({ keep: true });

    const t = await startTestServer({ storage, env });
    try {
      const heard: DeliveredEvent[] = [];
      t.app.ctx.events.subscribe('test-expired', ['order.expired'], async (event) => {
        heard.push(event);
      });
      const status = async (orderSn: string) =>
        (await t.get<OrderInfo>(`/api/v3/order.detail?orderSn=${orderSn}`, member.token)).Data.status;
      const stored = async () =>
        (await t.server.database.db.selectFrom('orders').select(['orderSn', 'status']).orderBy('id').execute()).map(
          (o) => o.status,
        );
      await t.app.ctx.events.drain();
      expect(await stored()).toEqual([OrderStatus.PENDING, OrderStatus.PAID]);

      vi.setSystemTime(Date.parse(unpaid.expiresAt!) - 1000);
      await t.app.ctx.events.drain();
      expect(await stored()).toEqual([OrderStatus.PENDING, OrderStatus.PAID]);
      expect(heard).toEqual([]);

      // Its time: the timer of the unpaid order marks it expired (in the database, not only as read) and announces it.
      vi.setSystemTime(Date.parse(paid.expiresAt!) + 1);
      await t.app.ctx.events.drain();
      expect(await stored()).toEqual([OrderStatus.EXPIRED, OrderStatus.PAID]);
      expect(await status(paid.orderSn)).toBe(OrderStatus.PAID);
      expect(heard).toMatchObject([{ name: 'order.expired', payload: { userId: member.id } }]);
    } finally {
      await t.close();
    }
  });
});

describe('draining', () => {
  it('waits for the pass a wake-up during another pass started (a subscriber that emitted and woke the bus)', async () => {
    const t = await startTestServer();
    try {
      const events = t.app.ctx.events;
      const finished: number[] = [];
      let chained = false;
      // Hears the follow, writes a second event of its own and wakes the bus (as a subscriber that writes does):
      // the wake-up arrives while a pass is under way, so another pass starts the moment this one ends.
      events.subscribe('test-chain', ['user.followed'], async (event) => {
        if (chained) return;
        chained = true;
        await t.server.database.db.transaction().execute((trx) => events.emit(trx, 'user.followed', event.payload));
        events.wake(false);
      });
      // Slow to hear each event: a drain that returned while the second pass was still under way finds one.
      events.subscribe('test-slow', ['user.followed'], async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        finished.push(event.id);
      });
      const fan = await buildUser(t);
      const star = await buildUser(t);
      // The harness drains after the write, as every test does.
      expect((await follow(t, fan.token, star.id)).Code).toBe(0);
      expect(chained).toBe(true);
      expect(finished).toHaveLength(2);
      const rows = await deliveries(t, 'test-slow');
      expect(rows.map((r) => r.doneAt !== null)).toEqual([true, true]);
    } finally {
      await t.close();
    }
  });
});
