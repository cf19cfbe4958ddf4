import {
  Code,
  WalletChangeType,
  type BountyPart,
  type Page,
  type ThreadDetail,
  type ThreadItem,
  type WalletLogItem,
} from '@luntan/shared';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { settleBounty } from './bounty.repository.js';
import { moveBountyMoney } from './bounty.service.js';
import {
  balances,
  expectLedgerMatchesWallets,
  financialNotices,
  fund,
  PAY_PASSWORD,
  redeliverToNotifications,
  setPayPassword,
} from '../../test/money-fixtures.js';

/** Bounty questions (悬赏, part 107): posting one freezes the offer, the author awards replies, the rest returns. */
const t = useTestServer();
afterAll(async () => {
  await expectLedgerMatchesWallets(t.current);
});
afterEach(() => {
  vi.useRealTimers();
});

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
type Member = Awaited<ReturnType<typeof t.buildMember>>;

const post = (token: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    {
      categoryId: 1,
      title: '求助：如何配置代理',
      content: { text: '谁能帮我？', indexes: { 107: { tomId: '107', body } } },
      ...extra,
    },
    token,
  );

const award = (token: string, threadId: number, postId: number, rewards: unknown, payPassword = PAY_PASSWORD) =>
  t.post<BountyPart>('/api/v3/posts.reward', { threadId, postId, rewards, payPassword }, token);

const bountyOf = async (threadId: number, token?: string) =>
  (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, token)).Data.content.indexes['107']
    ?.body as BountyPart;

async function funded(amount: string): Promise<Member> {
  const member = await t.buildMember();
  await fund(t.current, t.admin, member.id, amount);
  await setPayPassword(t.current, member);
  return member;
}

async function bountyThread(amount = '50.00', wallet = '100.00') {
  const author = await funded(wallet);
  const res = await post(author.token, { price: amount, expiredAt: inDays(3), type: 0 });
  expect(res.Code, res.Message).toBe(0);
  return { author, threadId: res.Data.threadId };
}

const threadCount = async () =>
  Number(
    (
      await t.app.ctx.db
        .selectFrom('threads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('posting a bounty question', () => {
  it('freezes the offer in the author wallet and answers the bounty to everyone; lists mark it', async () => {
    const { author, threadId } = await bountyThread('50.00', '100.00');
    expect(await balances(t.current, author.id)).toMatchObject({ available: 5000, frozen: 5000 });
    const log = await t.get<Page<WalletLogItem>>('/api/v3/wallet/log', author.token);
    expect(log.Data.pageData[0]).toMatchObject({
      changeType: WalletChangeType.BOUNTY_FREEZE,
      changeAvailableAmount: '-50.00',
      changeFreezeAmount: '50.00',
    });
    for (const token of [author.token, (await t.buildMember()).token, undefined]) {
      const bounty = await bountyOf(threadId, token);
      expect(bounty).toMatchObject({ amount: '50.00', remaining: '50.00', isExpired: false, awards: [], type: 0 });
    }
    const list = await t.get<Page<ThreadItem>>('/api/v3/thread.list?filter[sort]=1&perPage=50');
    const item = list.Data.pageData.find((x) => x.threadId === threadId)!;
    expect(item.parts).toEqual([107]);
    expect(item.isReward).toBe(true);
  });

  it('refuses too little money, bad amounts and deadlines, and stores nothing', async () => {
    const author = await funded('10.00');
    const before = await threadCount();
    const poor = await post(author.token, { price: '10.01', expiredAt: inDays(2) });
    expect(poor.Code).toBe(Code.PAYMENT_FAILED);
    expect(poor.Message).toContain('钱包余额不足');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: '0', expiredAt: inDays(2) }, 'price', '悬赏金额'],
      [{ price: '-5', expiredAt: inDays(2) }, 'price', '悬赏金额'],
      [{ price: '1.234', expiredAt: inDays(2) }, 'price', '两位小数'],
      [{ price: '1.00', expiredAt: inDays(-1) }, 'expiredAt', '24 小时'],
      [{ price: '1.00', expiredAt: inDays(0.5) }, 'expiredAt', '24 小时'],
      [{ price: '1.00', expiredAt: inDays(31) }, 'expiredAt', '30 天'],
      [{ price: '1.00', expiredAt: 'tomorrow' }, 'expiredAt', '悬赏截止时间'],
      [{ price: '1.00', expiredAt: inDays(2), type: 1 }, 'type', '所有人'],
    ];
    for (const [body, field, zh] of cases) {
      const res = await post(author.token, body);
      expect(res.Code, field).toBe(Code.INVALID_PARAMETER);
      expect((res.Data as unknown as { field: string }).field).toBe(`content.indexes.107.body.${field}`);
      expect(res.Message).toContain(zh);
    }
    expect(await threadCount()).toBe(before);
    expect(await balances(t.current, author.id)).toMatchObject({ available: 1000, frozen: 0 });
  });

  it('needs thread.insertReward in the category', async () => {
    const member = await funded('10.00');
    await t.buildGroup(['viewThreads', 'thread.viewPosts', 'createThread'], [member]);
    const res = await post(member.token, { price: '1.00', expiredAt: inDays(2) });
    expect(res.Code).toBe(Code.UNAUTHORIZED);
    expect(res.Message).toContain('悬赏');
    expect(await balances(t.current, member.id)).toMatchObject({ available: 1000, frozen: 0 });
  });

  it('cannot be changed or removed once posted, nor added to a published thread', async () => {
    const { author, threadId } = await bountyThread('5.00', '20.00');
    const same = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      {
        threadId,
        content: { text: '补充', indexes: { 107: { tomId: '107', body: { price: '5.00', expiredAt: inDays(5) } } } },
      },
      author.token,
    );
    expect(same.Code).toBe(0);
    for (const part of [
      { tomId: '107', body: { price: '6.00', expiredAt: inDays(5) } },
      { tomId: '107', operation: 'delete' },
    ]) {
      const res = await t.post(
        '/api/v3/thread.update',
        { threadId, content: { text: 'x', indexes: { 107: part } } },
        author.token,
      );
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
    }
    const plain = await t.buildThread(author);
    const added = await t.post(
      '/api/v3/thread.update',
      {
        threadId: plain.threadId,
        content: { text: 'x', indexes: { 107: { tomId: '107', body: { price: '1.00', expiredAt: inDays(2) } } } },
      },
      author.token,
    );
    expect(added.Code).toBe(Code.INVALID_PARAMETER);
    expect(added.Message).toContain('已发布的帖子不能再增加悬赏');
    expect(await balances(t.current, author.id)).toMatchObject({ available: 1500, frozen: 500 });
  });
});

describe('a draft’s bounty', () => {
  const removeBounty = (token: string, threadId: number) =>
    t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId, content: { text: '不悬赏了', indexes: { 107: { tomId: '107', operation: 'delete' } } } },
      token,
    );

  it('may be taken back: its offer returns to the author’s available money, once', async () => {
    const author = await funded('30.00');
    const draft = await post(author.token, { price: '10.00', expiredAt: inDays(3), type: 0 }, { draft: 1 });
    expect(draft.Code, draft.Message).toBe(0);
    expect(await balances(t.current, author.id)).toMatchObject({ available: 2000, frozen: 1000 });
    expect((await removeBounty(author.token, draft.Data.threadId)).Code).toBe(0);
    expect(await balances(t.current, author.id)).toMatchObject({ available: 3000, frozen: 0 });
    expect(await bountyOf(draft.Data.threadId, author.token)).toBeUndefined();
  });

  // SQLite runs one writing transaction at a time; PostgreSQL reads each statement anew, so a deadline's settlement
  // can commit between the edit's read of the bounty and its removal.
  it.runIf(process.env.DATABASE_URL)(
    'taken back while its deadline settles it: the offer returns once, and the edit is refused',
    async () => {
      const author = await funded('30.00');
      const draft = await post(author.token, { price: '10.00', expiredAt: inDays(3), type: 0 }, { draft: 1 });
      expect(draft.Code, draft.Message).toBe(0);
      // More frozen money: the wallet's own guard would not stop a second return of the first offer.
      expect((await post(author.token, { price: '10.00', expiredAt: inDays(3), type: 0 })).Code).toBe(0);
      const threadId = draft.Data.threadId;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let settled = () => {};
      const didSettle = new Promise<void>((resolve) => (settled = resolve));
      // The deadline's settlement (bounty.service.ts, expireBounty), its transaction held open.
      const expiring = t.app.ctx.db.transaction().execute(async (trx) => {
        expect(await settleBounty(trx, threadId, 1000, new Date().toISOString())).toBe(true);
        await moveBountyMoney(trx, {
          userId: author.id,
          available: 1000,
          frozen: -1000,
          type: WalletChangeType.BOUNTY_REFUND,
          desc: 'expired',
        });
        settled();
        await held;
      });
      await didSettle;
      const removing = removeBounty(author.token, threadId);
      // The edit has read the bounty and waits for the settlement's locks.
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await expiring;
      const res = await removing;
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
      expect(await balances(t.current, author.id)).toMatchObject({ available: 2000, frozen: 1000 });
    },
  );
});

describe('awarding answers (posts.reward)', () => {
  it('moves the exact amount from the author frozen money to the answerer, with ledger rows on both sides', async () => {
    const { author, threadId } = await bountyThread('50.00', '100.00');
    const answerer = await t.buildMember();
    const reply = await t.buildReply(answerer, threadId, { text: '这样配置即可' });
    const res = await award(author.token, threadId, reply.id, '12.34');
    expect(res.Code, res.Message).toBe(0);
    expect(res.Data).toMatchObject({
      amount: '50.00',
      remaining: '37.66',
      awards: [{ postId: reply.id, userId: answerer.id, amount: '12.34' }],
    });
    expect(await balances(t.current, author.id)).toMatchObject({ available: 5000, frozen: 5000 - 1234 });
    expect(await balances(t.current, answerer.id)).toMatchObject({ available: 1234, frozen: 0 });
    const theirs = await t.get<Page<WalletLogItem>>('/api/v3/wallet/log', answerer.token);
    expect(theirs.Data.pageData[0]).toMatchObject({
      changeType: WalletChangeType.BOUNTY_INCOME,
      changeAvailableAmount: '12.34',
    });
    const mine = await t.get<Page<WalletLogItem>>('/api/v3/wallet/log', author.token);
    expect(mine.Data.pageData[0]).toMatchObject({
      changeType: WalletChangeType.BOUNTY_EXPENSE,
      changeAvailableAmount: '0.00',
      changeFreezeAmount: '-12.34',
    });
    expect((await bountyOf(threadId)).awards).toHaveLength(1);
  });

  it('refuses more than is left, strangers, own replies, the first post, a wrong pay password', async () => {
    const { author, threadId } = await bountyThread('10.00', '10.00');
    const answerer = await t.buildMember();
    const reply = await t.buildReply(answerer, threadId);
    const own = await t.buildReply(author, threadId);
    expect((await award(author.token, threadId, reply.id, '10.01')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await award(answerer.token, threadId, reply.id, '1.00')).Code).toBe(Code.UNAUTHORIZED);
    expect((await award(author.token, threadId, own.id, '1.00')).Message).toContain('不能采纳自己的回复');
    const first = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, author.token);
    expect((await award(author.token, threadId, first.Data.postId, '1.00')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await award(author.token, threadId, reply.id, '1.00', '000000')).Code).toBe(Code.PAYMENT_FAILED);
    for (const bad of ['0', '-1', '1.001']) {
      expect((await award(author.token, threadId, reply.id, bad)).Code).toBe(Code.INVALID_PARAMETER);
    }
    const plain = await t.buildThread(author);
    expect((await award(author.token, plain.threadId, reply.id, '1.00')).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(await balances(t.current, answerer.id)).toMatchObject({ available: 0 });
    expect((await award(author.token, threadId, reply.id, '10.00')).Data.remaining).toBe('0.00');
    expect((await award(author.token, threadId, reply.id, '0.01')).Code).toBe(Code.INVALID_PARAMETER);
    expect(await balances(t.current, author.id)).toMatchObject({ available: 0, frozen: 0 });
  });

  it('tells the answerer of each award, once, in the financial notices: the amount, from the author', async () => {
    const { author, threadId } = await bountyThread('10.00', '10.00');
    const answerer = await t.buildMember();
    const reply = await t.buildReply(answerer, threadId);
    expect((await award(author.token, threadId, reply.id, '2.50')).Code).toBe(0);
    const [notice, ...more] = await financialNotices(t.current, answerer.token, 'threadrewarded');
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      type: 'threadrewarded',
      category: 'financial',
      title: '获得悬赏',
      threadId,
      postId: reply.id,
      fromUser: { id: author.id },
    });
    expect(notice!.content).toContain('2.50 元');
    expect(notice!.content).toContain('求助：如何配置代理');
    // The event handed over again tells nobody twice; a second award to the same reply is a notice of its own.
    await redeliverToNotifications(t.current, 'bounty.awarded', threadId);
    expect(await financialNotices(t.current, answerer.token, 'threadrewarded')).toHaveLength(1);
    expect((await award(author.token, threadId, reply.id, '1.00')).Code).toBe(0);
    const both = await financialNotices(t.current, answerer.token, 'threadrewarded');
    expect(both.map((n) => n.content.includes('1.00 元'))).toEqual([true, false]);
    expect(await financialNotices(t.current, author.token, 'threadrewarded')).toEqual([]);
  });

  it('names nobody in the award notice of an anonymous question', async () => {
    const author = await funded('10.00');
    const made = await post(author.token, { price: '5.00', expiredAt: inDays(3) }, { anonymous: 1 });
    expect(made.Code, made.Message).toBe(0);
    expect(made.Data.isAnonymous).toBe(true);
    const answerer = await t.buildMember();
    const reply = await t.buildReply(answerer, made.Data.threadId);
    expect((await award(author.token, made.Data.threadId, reply.id, '5.00')).Code).toBe(0);
    const notices = await financialNotices(t.current, answerer.token, 'threadrewarded');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ fromUser: null, postId: reply.id });
    expect(notices[0]!.content).toContain('5.00 元');
  });

  it('cannot overspend with concurrent awards', async () => {
    const { author, threadId } = await bountyThread('10.00', '10.00');
    const replies = [];
    for (let i = 0; i < 6; i++) replies.push(await t.buildReply(await t.buildMember(), threadId));
    const answers = await Promise.all(replies.map((r) => award(author.token, threadId, r.id, '3.00')));
    expect(answers.filter((a) => a.Code === 0)).toHaveLength(3);
    const bounty = await bountyOf(threadId);
    expect(bounty.remaining).toBe('1.00');
    expect(await balances(t.current, author.id)).toMatchObject({ available: 0, frozen: 100 });
  });
});

describe('the deadline', () => {
  it('returns what is left to the author once, and ends awarding', async () => {
    const { author, threadId } = await bountyThread('20.00', '20.00');
    const answerer = await t.buildMember();
    const reply = await t.buildReply(answerer, threadId);
    expect((await award(author.token, threadId, reply.id, '5.00')).Code).toBe(0);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3 * DAY + 1000);
    await t.app.ctx.events.drain();
    await t.app.ctx.events.drain();
    expect(await balances(t.current, author.id)).toMatchObject({ available: 1500, frozen: 0 });
    const bounty = await bountyOf(threadId);
    expect(bounty).toMatchObject({ remaining: '0.00', isExpired: true });
    const refunds = await t.app.ctx.db
      .selectFrom('walletLogs')
      .selectAll()
      .where('userId', '=', author.id)
      .where('changeType', '=', WalletChangeType.BOUNTY_REFUND)
      .execute();
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0]!.changeAvailableCents)).toBe(1500);
    expect((await award(author.token, threadId, reply.id, '1.00')).Message).toContain('悬赏已结束');
    // The author is told what came back, by the site, once; the answerer hears nothing of it.
    const [notice, ...more] = await financialNotices(t.current, author.token, 'threadrewardedexpired');
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      type: 'threadrewardedexpired',
      category: 'financial',
      title: '悬赏已过期',
      threadId,
      fromUser: null,
    });
    expect(notice!.content).toContain('15.00 元');
    await redeliverToNotifications(t.current, 'bounty.expired', threadId);
    expect(await financialNotices(t.current, author.token, 'threadrewardedexpired')).toHaveLength(1);
    expect(await financialNotices(t.current, answerer.token, 'threadrewardedexpired')).toEqual([]);
  });

  it('tells nothing at the deadline of a bounty awarded in full', async () => {
    const { author, threadId } = await bountyThread('5.00', '5.00');
    const reply = await t.buildReply(await t.buildMember(), threadId);
    expect((await award(author.token, threadId, reply.id, '5.00')).Code).toBe(0);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3 * DAY + 1000);
    await t.app.ctx.events.drain();
    await t.app.ctx.events.drain();
    // The deadline passed (bounty.expired was announced and heard), with nothing to return.
    await redeliverToNotifications(t.current, 'bounty.expired', threadId);
    expect(await financialNotices(t.current, author.token, 'threadrewardedexpired')).toEqual([]);
    expect(await balances(t.current, author.id)).toMatchObject({ available: 0, frozen: 0 });
  });
});
