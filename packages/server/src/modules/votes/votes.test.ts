import { Code, type ThreadDetail, type ThreadPartView, type VotePart } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

/** Votes (part 109) in content.indexes and POST /api/v3/vote.thread. */
const t = useTestServer();

const READ = ['viewThreads', 'thread.viewPosts', 'createThread'];
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const VOTE = {
  voteTitle: '午饭吃什么',
  choiceType: 1,
  expiredAt: inDays(7),
  subitems: [{ content: '面条' }, { content: '米饭' }, { content: '饺子' }],
};

type Member = Awaited<ReturnType<typeof t.buildMember>>;
let voter: Member;
/** A member whose group holds thread.insertVote (the member group does not by default, as in the family). */
async function votingAuthor(): Promise<Member> {
  const author = await t.buildMember();
  await t.buildGroup([...READ, 'thread.editOwnThread', 'thread.insertVote'], [author]);
  return author;
}

beforeAll(async () => {
  voter = await t.buildMember();
});

const create = (token: string, body: unknown, text = '来投票') =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title: '投票帖', content: { text, indexes: { 109: { tomId: '109', body } } } },
    token,
  );

const voteOf = (detail: ThreadDetail): VotePart =>
  (detail.content.indexes['109'] as ThreadPartView<VotePart[]>).body[0]!;

const detail = async (threadId: number, token?: string) =>
  voteOf((await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, token)).Data);

const cast = (token: string | undefined, threadId: number, voteId: number, subitemIds: number[]) =>
  t.post<Record<string, ThreadPartView<VotePart[]>>>('/api/v3/vote.thread', { threadId, voteId, subitemIds }, token);

const counts = async () => {
  const db = t.app.ctx.db;
  const n = async (table: 'threads' | 'threadVotes' | 'threadVoteSubitems' | 'threadVoteUsers') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return [await n('threads'), await n('threadVotes'), await n('threadVoteSubitems'), await n('threadVoteUsers')];
};

describe('a vote in content.indexes', () => {
  it('is created with thread.insertVote and answered in the family select() shape; refused without it', async () => {
    const plain = await t.buildMember();
    await t.buildGroup(READ, [plain]);
    const refused = await create(plain.token, VOTE);
    expect(refused.Code).toBe(Code.UNAUTHORIZED);

    const author = await votingAuthor();
    const res = await create(author.token, VOTE);
    expect(res.Code).toBe(0);
    expect(res.Data.parts).toEqual([109]);
    const vote = voteOf(res.Data);
    expect(vote).toMatchObject({
      voteTitle: '午饭吃什么',
      choiceType: 1,
      expiredAt: VOTE.expiredAt,
      isExpired: false,
      isVoted: false,
      voteUsers: 0,
      showResults: true,
      canVote: true,
    });
    expect(vote.subitems.map((s) => [s.content, s.voteCount, s.voteRate, s.isVoted])).toEqual([
      ['面条', 0, '0%', false],
      ['米饭', 0, '0%', false],
      ['饺子', 0, '0%', false],
    ]);
    const value = await t.app.ctx.db
      .selectFrom('threadParts')
      .select('value')
      .where('threadId', '=', res.Data.threadId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(value.value)).toEqual({ voteIds: [vote.voteId] });

    const list = await t.get<{ pageData: { threadId: number; isVote: boolean }[] }>(
      '/api/v3/thread.list?filter[sort]=1&perPage=50',
    );
    expect(list.Data.pageData.find((x) => x.threadId === res.Data.threadId)?.isVote).toBe(true);
  });

  it('shows options to everyone, counts only to voters, the author, administrators, and everyone after the end', async () => {
    const author = await votingAuthor();
    const made = await create(author.token, { ...VOTE, choiceType: 2 });
    const { threadId } = made.Data;
    const { voteId, subitems } = voteOf(made.Data);

    const stranger = await t.buildMember();
    const hidden = await detail(threadId, stranger.token);
    expect(hidden).toMatchObject({ showResults: false, canVote: true, isVoted: false, voteUsers: 0 });
    expect(hidden.subitems.map((s) => [s.content, s.voteCount, s.voteRate])).toEqual([
      ['面条', null, null],
      ['米饭', null, null],
      ['饺子', null, null],
    ]);
    const guest = await detail(threadId);
    expect(guest).toMatchObject({ showResults: false, canVote: false });
    expect(guest.subitems.map((s) => s.content)).toEqual(['面条', '米饭', '饺子']);
    expect((await cast(undefined, threadId, voteId, [subitems[0]!.id])).Code).toBe(Code.JUMP_TO_LOGIN);

    // Multiple choice: two options; the answer shows the results to the voter.
    const voted = await cast(stranger.token, threadId, voteId, [subitems[0]!.id, subitems[2]!.id]);
    expect(voted.Code).toBe(0);
    const mine = voted.Data['109']!.body[0]!;
    expect(mine).toMatchObject({ isVoted: true, showResults: true, canVote: false, voteUsers: 1 });
    expect(mine.subitems.map((s) => [s.voteCount, s.voteRate, s.isVoted])).toEqual([
      [1, '50%', true],
      [0, '0%', false],
      [1, '50%', true],
    ]);

    // Family body shape { threadId, vote: { id, subitemIds } } too.
    const second = await t.buildMember();
    const again = await t.post(
      '/api/v3/vote.thread',
      { threadId, vote: { id: voteId, subitemIds: [subitems[0]!.id] } },
      second.token,
    );
    expect(again.Code).toBe(0);

    for (const token of [author.token, t.admin, stranger.token]) {
      const seen = await detail(threadId, token);
      expect(seen.showResults).toBe(true);
      expect(seen.voteUsers).toBe(2);
      expect(seen.subitems.map((s) => [s.voteCount, s.voteRate])).toEqual([
        [2, '66.67%'],
        [0, '0%'],
        [1, '33.33%'],
      ]);
    }
    expect((await detail(threadId)).showResults).toBe(false);

    // Ended (set in the database): everyone sees the results, nobody votes.
    await t.app.ctx.db
      .updateTable('threadVotes')
      .set({ expiredAt: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', voteId)
      .execute();
    const late = await t.buildMember();
    const ended = await detail(threadId, late.token);
    expect(ended).toMatchObject({ isExpired: true, showResults: true, canVote: false, isVoted: false });
    expect(ended.subitems.map((s) => s.voteCount)).toEqual([2, 0, 1]);
    const refused = await cast(late.token, threadId, voteId, [subitems[1]!.id]);
    expect(refused.Code).toBe(Code.INVALID_PARAMETER);
    expect(refused.Message).toBe('投票已结束');
  });

  it('takes one ballot per member: a second is refused with -4001, also when two arrive at once', async () => {
    const author = await votingAuthor();
    const made = await create(author.token, VOTE);
    const { threadId } = made.Data;
    const { voteId, subitems } = voteOf(made.Data);
    const [a, b] = [subitems[0]!.id, subitems[1]!.id];

    const two = await cast(voter.token, threadId, voteId, [a, b]);
    expect(two.Code).toBe(Code.INVALID_PARAMETER);
    expect(two.Message).toBe('该投票是单选，只能选一项');
    expect((await cast(voter.token, threadId, voteId, [999_999])).Code).toBe(Code.INVALID_PARAMETER);
    expect((await cast(voter.token, threadId, 999_999, [a])).Code).toBe(Code.RESOURCE_NOT_FOUND);

    expect((await cast(voter.token, threadId, voteId, [a])).Code).toBe(0);
    const twice = await cast(voter.token, threadId, voteId, [b]);
    expect(twice.Code).toBe(Code.INVALID_PARAMETER);
    expect(twice.Message).toBe('已投票，不可再投');

    const racer = await t.buildMember();
    const answers = await Promise.all([
      cast(racer.token, threadId, voteId, [a]),
      cast(racer.token, threadId, voteId, [b]),
      cast(racer.token, threadId, voteId, [b]),
    ]);
    expect(answers.map((r) => r.Code).sort()).toEqual([Code.INVALID_PARAMETER, Code.INVALID_PARAMETER, 0].sort());
    const rows = await t.app.ctx.db
      .selectFrom('threadVoteUsers')
      .select('userId')
      .where('threadVoteId', '=', voteId)
      .where('userId', '=', racer.id)
      .execute();
    expect(rows).toHaveLength(1);
    const seen = await detail(threadId, racer.token);
    expect(seen.voteUsers).toBe(2);
    expect(seen.subitems.reduce((sum, s) => sum + (s.voteCount ?? 0), 0)).toBe(2);
  });

  it('is updated by the family rules: choice type locked once voted, removed options lose their votes', async () => {
    const author = await votingAuthor();
    const made = await create(author.token, VOTE);
    const { threadId } = made.Data;
    const { voteId, subitems } = voteOf(made.Data);
    const [noodles, rice, dumplings] = subitems.map((s) => s.id) as [number, number, number];
    const update = (body: unknown) =>
      t.post<ThreadDetail>(
        '/api/v3/thread.update',
        { threadId, content: { text: '来投票', indexes: { 109: { tomId: '109', body } } } },
        author.token,
      );

    // Before anyone voted the choice type may change.
    expect((await update({ ...VOTE, choiceType: 2, subitems })).Code).toBe(0);
    expect((await update({ ...VOTE, choiceType: 1, subitems })).Code).toBe(0);
    expect((await cast(voter.token, threadId, voteId, [dumplings])).Code).toBe(0);

    const locked = await update({ ...VOTE, choiceType: 2, subitems });
    expect(locked.Code).toBe(Code.INVALID_PARAMETER);
    expect((locked.Data as unknown as { field: string }).field).toBe('content.indexes.109.body.choiceType');

    const unknown = await update({ ...VOTE, subitems: [{ id: 999_999, content: 'x' }, { content: 'y' }] });
    expect(unknown.Code).toBe(Code.INVALID_PARAMETER);

    // Rename one, drop "饺子" (with its vote), add one.
    const changed = await update({
      ...VOTE,
      voteTitle: '晚饭吃什么',
      subitems: [{ id: noodles, content: '拉面' }, { id: rice, content: '米饭' }, { content: '馄饨' }],
    });
    expect(changed.Code).toBe(0);
    const after = voteOf(changed.Data);
    expect(after.voteId).toBe(voteId);
    expect(after.voteTitle).toBe('晚饭吃什么');
    expect(after.voteUsers).toBe(0);
    expect(after.subitems.map((s) => [s.content, s.voteCount])).toEqual([
      ['拉面', 0],
      ['米饭', 0],
      ['馄饨', 0],
    ]);
    expect(after.subitems.slice(0, 2).map((s) => s.id)).toEqual([noodles, rice]);
    // The voter whose only choice went may vote again.
    expect((await detail(threadId, voter.token)).isVoted).toBe(false);
    expect((await cast(voter.token, threadId, voteId, [rice])).Code).toBe(0);

    // An ended vote keeps its end time through an edit of the thread; a new past end time is refused.
    const past = new Date(Date.now() - 60_000).toISOString();
    await t.app.ctx.db.updateTable('threadVotes').set({ expiredAt: past }).where('id', '=', voteId).execute();
    const kept = await update({
      ...after,
      expiredAt: past,
      subitems: after.subitems.map(({ id, content }) => ({ id, content })),
    });
    expect(kept.Code).toBe(0);
    const moved = await update({ ...VOTE, expiredAt: new Date(Date.now() - 120_000).toISOString() });
    expect(moved.Code).toBe(Code.INVALID_PARAMETER);

    // Deleted with the part.
    const removed = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId, content: { text: '不投了', indexes: { 109: { tomId: '109', operation: 'delete' } } } },
      author.token,
    );
    expect(removed.Code).toBe(0);
    expect(await t.app.ctx.db.selectFrom('threadVotes').select('id').where('id', '=', voteId).execute()).toEqual([]);
    expect(
      await t.app.ctx.db.selectFrom('threadVoteUsers').select('id').where('threadVoteId', '=', voteId).execute(),
    ).toEqual([]);
  });

  it('refuses bad votes with a sentence naming the field, and stores nothing', async () => {
    const author = await votingAuthor();
    const before = await counts();
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `选项${i + 1}` }));
    const cases: [unknown, string, string][] = [
      [{ ...VOTE, subitems: [] }, 'content.indexes.109.body.subitems', '投票选项至少要有 2 项'],
      [{ ...VOTE, subitems: options(1) }, 'content.indexes.109.body.subitems', '投票选项至少要有 2 项'],
      [{ ...VOTE, subitems: options(1000) }, 'content.indexes.109.body.subitems', '投票选项最多 20 项'],
      [{ ...VOTE, subitems: undefined }, 'content.indexes.109.body.subitems', '投票选项不能为空'],
      [
        { ...VOTE, subitems: [{ content: 'a' }, { content: 'a' }] },
        'content.indexes.109.body.subitems',
        '投票选项不能重复',
      ],
      [
        { ...VOTE, subitems: [{ content: 'a' }, { content: 'x'.repeat(51) }] },
        'content.indexes.109.body.subitems.1.content',
        '投票选项',
      ],
      [{ ...VOTE, voteTitle: '' }, 'content.indexes.109.body.voteTitle', '投票标题不能为空'],
      [{ ...VOTE, voteTitle: '题'.repeat(26) }, 'content.indexes.109.body.voteTitle', '投票标题'],
      [{ ...VOTE, choiceType: 3 }, 'content.indexes.109.body.choiceType', '选择类型'],
      [{ ...VOTE, expiredAt: '2026-13-01' }, 'content.indexes.109.body.expiredAt', '结束时间需要是带时区'],
      [{ ...VOTE, expiredAt: inDays(-1) }, 'content.indexes.109.body.expiredAt', '结束时间需要晚于现在'],
      [{ ...VOTE, expiredAt: inDays(400) }, 'content.indexes.109.body.expiredAt', '结束时间最晚为一年后'],
    ];
    for (const [body, field, zh] of cases) {
      const res = await create(author.token, body);
      expect(res.Code, field).toBe(Code.INVALID_PARAMETER);
      expect((res.Data as unknown as { field: string }).field, zh).toBe(field);
      expect(res.Message).toContain(zh);
      expect(res.Message).not.toMatch(/invalid_|Expected|undefined/);
    }
    expect(await counts()).toEqual(before);
  });

  it("is shown to a paid thread's free-part readers, who may vote", async () => {
    const author = await votingAuthor();
    await t.buildGroup([...READ, 'thread.insertVote', 'thread.insertPay'], [author]);
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      {
        categoryId: 1,
        title: '付费投票',
        price: '3.00',
        freeWords: 0.25,
        content: { text: '付费内容很长很长', indexes: { 109: { tomId: '109', body: VOTE } } },
      },
      author.token,
    );
    expect(made.Code).toBe(0);
    const reader = await t.buildMember();
    const seen = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${made.Data.threadId}`, reader.token);
    expect(seen.Data.canViewFull).toBe(false);
    const vote = voteOf(seen.Data);
    expect(vote.canVote).toBe(true);
    expect((await cast(reader.token, made.Data.threadId, vote.voteId, [vote.subitems[0]!.id])).Code).toBe(0);
  });
});
