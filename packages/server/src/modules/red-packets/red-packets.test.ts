import {
  Code,
  WalletChangeType,
  type CheckRedPacketResult,
  type RedPacketPart,
  type ThreadDetail,
} from '@luntan/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import {
  expectLedgerMatchesWallets,
  financialNotices,
  fund,
  PAY_PASSWORD,
  redeliverToNotifications,
  setPayPassword,
} from '../../test/money-fixtures.js';
import { claimPacket, expireRedPacket, splitAmounts } from './index.js';

/** Red packets (part 106): paid from the wallet with the thread, handed out on replies and likes, returned after 24h. */
const t = useTestServer();

afterAll(async () => {
  await expectLedgerMatchesWallets(t.current);
});

type Member = Awaited<ReturnType<typeof t.buildMember>>;

const balances = async (userId: number) => {
  const row = await t.app.ctx.db
    .selectFrom('wallets')
    .select(['availableCents', 'frozenCents'])
    .where('userId', '=', userId)
    .executeTakeFirst();
  return { available: Number(row?.availableCents ?? 0), frozen: Number(row?.frozenCents ?? 0) };
};

async function fundedAuthor(amount: string): Promise<Member> {
  const member = await t.buildMember();
  await setPayPassword(t.current, member);
  await fund(t.current, t.admin, member.id, amount);
  return member;
}

const packetBody = (over: Record<string, unknown> = {}) => ({
  rule: 0,
  condition: 0,
  number: 2,
  price: '1.00',
  payPassword: PAY_PASSWORD,
  ...over,
});

const create = (token: string, body: Record<string, unknown>, text = '发红包啦') =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title: '红包帖', content: { text, indexes: { 106: { tomId: '106', body } } } },
    token,
  );

const partOf = async (threadId: number, token?: string) =>
  (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, token)).Data.content.indexes['106']!
    .body as RedPacketPart;

async function reply(token: string, threadId: number, content: string) {
  const res = await t.post<{ id: number }>('/api/v3/posts.create', { id: threadId, content }, token);
  expect(res.Code).toBe(0);
  return res;
}

const stored = async () => ({
  packets: Number(
    (
      await t.app.ctx.db
        .selectFrom('threadRedPackets')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
});

describe('making a red packet', () => {
  it('pays from the wallet into frozen money and shows the packet to everyone', async () => {
    const author = await fundedAuthor('10.00');
    const res = await create(author.token, packetBody({ number: 3, price: '1.50', content: '恭喜发财' }));
    expect(res.Code).toBe(0);
    expect(res.Data.parts).toEqual([106]);
    expect(await balances(author.id)).toEqual({ available: 550, frozen: 450 });
    const part = await partOf(res.Data.threadId);
    expect(part).toMatchObject({
      rule: 0,
      condition: 0,
      number: 3,
      price: '1.50',
      money: '4.50',
      remainMoney: '4.50',
      remainNumber: 3,
      status: 1,
      isDone: false,
      isExpired: false,
      content: '恭喜发财',
      mine: null,
      receivers: [],
    });
    expect(JSON.stringify(part)).not.toContain(PAY_PASSWORD);
  });

  it('refuses without enough money, without the pay password, and without permission: nothing stored', async () => {
    const author = await fundedAuthor('1.00');
    const before = await stored();
    const poor = await create(author.token, packetBody({ number: 3, price: '0.50' }));
    expect(poor.Code).toBe(Code.PAYMENT_FAILED);
    const noPassword = await create(author.token, packetBody({ payPassword: undefined, price: '0.10' }));
    expect(noPassword.Code).toBe(Code.INVALID_PARAMETER);
    const wrong = await create(author.token, packetBody({ payPassword: '000000', price: '0.10' }));
    expect(wrong.Code).toBe(Code.PAYMENT_FAILED);

    const member = await fundedAuthor('5.00');
    await t.buildGroup(['viewThreads', 'thread.viewPosts', 'createThread'], [member]);
    const denied = await create(member.token, packetBody());
    expect(denied.Code).toBe(Code.UNAUTHORIZED);

    expect(await stored()).toEqual(before);
    expect(await balances(author.id)).toEqual({ available: 100, frozen: 0 });
    expect(await balances(member.id)).toEqual({ available: 500, frozen: 0 });
  });

  it('refuses a payment through a provider when the site takes none: nothing stored', async () => {
    const author = await fundedAuthor('10.00');
    const before = await stored();
    const res = await create(author.token, packetBody({ payPassword: undefined, payment: 'provider' }));
    expect(res).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'content.indexes.106.body.payment' } });
    expect(await stored()).toEqual(before);
    expect(await balances(author.id)).toEqual({ available: 1000, frozen: 0 });
  });

  it('refuses zero, negative amounts and more random packets than cents', async () => {
    const author = await fundedAuthor('10.00');
    for (const body of [
      packetBody({ price: '0' }),
      packetBody({ price: '-1.00' }),
      packetBody({ number: 0 }),
      packetBody({ rule: 1, number: 5, price: '0.04' }),
      packetBody({ number: 101 }),
      packetBody({ condition: 1 }),
    ]) {
      const res = await create(author.token, body);
      expect(res.Code, JSON.stringify(body)).toBe(Code.INVALID_PARAMETER);
    }
    const exact = await create(author.token, packetBody({ rule: 1, number: 5, price: '0.05' }));
    expect(exact.Code).toBe(0);
    expect(await balances(author.id)).toEqual({ available: 995, frozen: 5 });
  });

  it('cannot be changed or removed once paid; the same body again is accepted', async () => {
    const author = await fundedAuthor('10.00');
    const made = await create(author.token, packetBody());
    const id = made.Data.threadId;
    const update = (part: unknown) =>
      t.post('/api/v3/thread.update', { threadId: id, content: { text: '改', indexes: { 106: part } } }, author.token);
    expect((await update({ tomId: '106', body: packetBody({ price: '2.00' }) })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ tomId: '106', operation: 'delete' })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ tomId: '106', body: packetBody({ payPassword: undefined }) })).Code).toBe(0);
    expect(await balances(author.id)).toEqual({ available: 800, frozen: 200 });
  });

  it('splits random amounts of at least a cent that sum exactly', () => {
    for (const [total, n] of [
      [100, 100],
      [101, 100],
      [20000, 7],
      [3, 1],
    ] as const) {
      const parts = splitAmounts(1, total, n);
      expect(parts).toHaveLength(n);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.min(...parts)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('handing out', () => {
  it('gives one packet per member who replies (with the password), never the author, and shows who got what', async () => {
    const author = await fundedAuthor('10.00');
    const made = await create(author.token, packetBody({ number: 2, price: '1.00', content: '口令' }));
    const id = made.Data.threadId;
    const [a, b, c] = [await t.buildMember(), await t.buildMember(), await t.buildMember()];
    await reply(author.token, id, '我自己 口令');
    await reply(a.token, id, '没有说对');
    expect((await partOf(id)).remainNumber).toBe(2);
    await reply(a.token, id, '口令 来了');
    await reply(a.token, id, '口令 再来');
    await reply(b.token, id, '口令');
    await reply(c.token, id, '口令');
    const part = await partOf(id, a.token);
    expect(part).toMatchObject({ remainNumber: 0, remainMoney: '0.00', isDone: true, status: 0 });
    expect(part.mine).toMatchObject({ amount: '1.00' });
    expect(part.receivers.map((r) => r.userId)).toEqual([a.id, b.id]);
    expect(await balances(a.id)).toEqual({ available: 100, frozen: 0 });
    expect(await balances(c.id)).toEqual({ available: 0, frozen: 0 });
    expect(await balances(author.id)).toEqual({ available: 800, frozen: 0 });

    const check = (token: string) =>
      t.get<CheckRedPacketResult>(`/api/v3/check.user.get.redpacket?threadId=${id}`, token);
    const first = await check(a.token);
    expect(first.Data).toMatchObject({ status: true, amount: '1.00', afterGetRedPacketFirstEnter: true });
    expect((await check(a.token)).Data.afterGetRedPacketFirstEnter).toBe(false);
    expect((await check(c.token)).Data).toEqual({
      status: false,
      amount: '0.00',
      getRedPacketTime: '',
      afterGetRedPacketFirstEnter: false,
    });
    expect((await t.get(`/api/v3/check.user.get.redpacket?threadId=${id}`)).Code).not.toBe(0);
    const plain = await t.buildThread(author);
    expect((await check(a.token)).Code).toBe(0);
    expect((await t.get(`/api/v3/check.user.get.redpacket?threadId=${plain.threadId}`, a.token)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
  });

  it('tells each member who got a packet, once, in the financial notices: the amount, from the author', async () => {
    const author = await fundedAuthor('10.00');
    const made = await create(author.token, packetBody({ number: 2, price: '1.25' }));
    const id = made.Data.threadId;
    const [a, b] = [await t.buildMember(), await t.buildMember()];
    const earned = await reply(a.token, id, '谢谢老板');
    await reply(a.token, id, '再谢一次');
    const unread = await t.get<{ financialUnread: number }>('/api/v3/unreadnotification', a.token);
    expect(unread.Data.financialUnread).toBe(1);
    const [notice, ...more] = await financialNotices(t.current, a.token, 'receiveredpacket');
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      type: 'receiveredpacket',
      category: 'financial',
      title: '你得到了红包',
      threadId: id,
      postId: earned.Data.id,
      fromUser: { id: author.id },
    });
    expect(notice!.content).toContain('1.25 元');
    expect(notice!.content).toContain('红包帖');
    // The event handed over again tells nobody twice; b, who got none yet, and the author hear nothing of a's.
    await redeliverToNotifications(t.current, 'red_packet.received', id);
    expect(await financialNotices(t.current, a.token, 'receiveredpacket')).toHaveLength(1);
    expect(await financialNotices(t.current, b.token, 'receiveredpacket')).toEqual([]);
    expect(await financialNotices(t.current, author.token, 'receiveredpacket')).toEqual([]);
    await reply(b.token, id, '我也来');
    expect(await financialNotices(t.current, b.token, 'receiveredpacket')).toHaveLength(1);
  });

  it('names nobody in the notice of an anonymous thread’s red packet', async () => {
    const author = await fundedAuthor('10.00');
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      {
        categoryId: 1,
        title: '匿名红包',
        anonymous: 1,
        content: { text: '发红包啦', indexes: { 106: { tomId: '106', body: packetBody({ number: 1 }) } } },
      },
      author.token,
    );
    expect(made.Code, made.Message).toBe(0);
    expect(made.Data.isAnonymous).toBe(true);
    const member = await t.buildMember();
    await reply(member.token, made.Data.threadId, '谢谢');
    const notices = await financialNotices(t.current, member.token, 'receiveredpacket');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ fromUser: null, threadId: made.Data.threadId });
    expect(notices[0]!.content).toContain('1.00 元');
  });

  it('gives a packet to a reply held for review once it is approved, not before', async () => {
    const words = await t.post(
      '/api/stop-words/batch.v2',
      { data: { type: 'stop-words', words: ['待审红包={MOD}'], overwrite: false } },
      t.admin,
    );
    expect(words.Code).toBe(0);
    const author = await fundedAuthor('10.00');
    const made = await create(author.token, packetBody({ number: 2, price: '1.00' }));
    const id = made.Data.threadId;
    const member = await t.buildMember();
    const held = await t.post<{ id: number; isApproved: boolean }>(
      '/api/v3/posts.create',
      { id, content: '回复 待审红包' },
      member.token,
    );
    expect(held.Data.isApproved).toBe(false);
    expect((await partOf(id)).remainNumber).toBe(2);
    const approved = await t.post(
      '/api/backAdmin/manage.submit.review',
      { type: 'post', ids: [held.Data.id], action: 'approve' },
      t.admin,
    );
    expect(approved.Code).toBe(0);
    const part = await partOf(id, member.token);
    expect(part.remainNumber).toBe(1);
    expect(part.mine).toMatchObject({ amount: '1.00' });
    expect(await balances(member.id)).toEqual({ available: 100, frozen: 0 });
  });

  it('under the likes condition gives the packet to the reply’s author once it has enough likes', async () => {
    const author = await fundedAuthor('10.00');
    const made = await create(author.token, packetBody({ condition: 1, likenum: 2, number: 1 }));
    const id = made.Data.threadId;
    const writer = await t.buildMember();
    const posted = await reply(writer.token, id, '求赞');
    const postId = posted.Data.id;
    expect((await partOf(id)).remainNumber).toBe(1);
    const like = (token: string) => t.post('/api/v3/posts.update', { id: postId, isLiked: true }, token);
    expect((await like((await t.buildMember()).token)).Code).toBe(0);
    expect((await partOf(id)).remainNumber).toBe(1);
    expect((await like((await t.buildMember()).token)).Code).toBe(0);
    const part = await partOf(id, writer.token);
    expect(part.remainNumber).toBe(0);
    expect(part.mine?.amount).toBe('1.00');
  });

  it('500 members racing for 10 packets: exactly 10 winners, the sums exact to the cent', async () => {
    const author = await fundedAuthor('100.00');
    const made = await create(author.token, packetBody({ rule: 1, number: 10, price: '33.33' }));
    const id = made.Data.threadId;
    const db = t.app.ctx.db;
    const base = await db.selectFrom('users').selectAll().where('id', '=', author.id).executeTakeFirstOrThrow();
    const { id: _id, ...rest } = base;
    const tag = Date.now().toString(36).slice(-5);
    const ids: number[] = [];
    for (let i = 0; i < 500; i += 50) {
      const rows = Array.from({ length: 50 }, (_, k) => ({
        ...rest,
        username: `rp${tag}${i + k}`,
        usernameNormalized: `rp${tag}${i + k}`,
        nickname: `rp${tag}${i + k}`,
      }));
      const made = await db.insertInto('users').values(rows).returning('id').execute();
      ids.push(...made.map((r) => r.id));
    }
    const results = await Promise.all(ids.map((userId) => claimPacket(t.app.ctx, id, userId, 1)));
    const winners = results.filter((r) => r !== null) as number[];
    expect(winners).toHaveLength(10);
    expect(winners.reduce((a, b) => a + b, 0)).toBe(3333);
    const part = await partOf(id);
    expect(part).toMatchObject({ remainNumber: 0, remainMoney: '0.00' });
    expect(part.receivers).toHaveLength(10);
    expect(await balances(author.id)).toEqual({ available: 10000 - 3333, frozen: 0 });
    const incomes = await db
      .selectFrom('walletLogs')
      .select((eb) => eb.fn.sum<number>('changeAvailableCents').as('sum'))
      .where('changeType', '=', WalletChangeType.RED_PACKET_INCOME)
      .where('userId', 'in', ids)
      .executeTakeFirstOrThrow();
    expect(Number(incomes.sum)).toBe(3333);
    await expectLedgerMatchesWallets(t.current);
  }, 120_000);
});

describe('after 24 hours', () => {
  it('returns the rest to the author once, through the due event', async () => {
    const author = await fundedAuthor('10.00');
    const made = await create(author.token, packetBody({ number: 3, price: '1.00' }));
    const id = made.Data.threadId;
    const member = await t.buildMember();
    await reply(member.token, id, '谢谢');
    expect(await balances(author.id)).toEqual({ available: 700, frozen: 200 });

    const db = t.app.ctx.db;
    const events = await db
      .selectFrom('domainEvents')
      .select(['id', 'payload', 'dueAt'])
      .where('name', '=', 'red_packet.expiry_due')
      .execute();
    const event = events.find((e) => (JSON.parse(e.payload) as { threadId: number }).threadId === id)!;
    expect(Date.parse(event.dueAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    // Not due yet: nothing happens.
    await t.app.ctx.events.drain();
    expect(await balances(author.id)).toEqual({ available: 700, frozen: 200 });
    // The clock moves on: the packet's time and its delivery are due now.
    const past = new Date(Date.now() - 1000).toISOString();
    await db.updateTable('threadRedPackets').set({ expiresAt: past }).where('threadId', '=', id).execute();
    await db.updateTable('eventDeliveries').set({ nextAttemptAt: past }).where('eventId', '=', event.id).execute();
    await t.app.ctx.events.drain();
    expect(await balances(author.id)).toEqual({ available: 900, frozen: 0 });
    const part = await partOf(id);
    expect(part).toMatchObject({ isExpired: true, isDone: true, status: 0, remainNumber: 0 });
    // Once: delivered again or run by two processes at once, nothing more moves.
    const redPacketId = (JSON.parse(event.payload) as { redPacketId: number }).redPacketId;
    expect(
      await Promise.all([expireRedPacket(t.app.ctx, redPacketId), expireRedPacket(t.app.ctx, redPacketId)]),
    ).toEqual([null, null]);
    expect(await balances(author.id)).toEqual({ available: 900, frozen: 0 });
    // A reply after that gets nothing.
    const late = await t.buildMember();
    await reply(late.token, id, '来晚了');
    expect(await balances(late.id)).toEqual({ available: 0, frozen: 0 });
  });
});
