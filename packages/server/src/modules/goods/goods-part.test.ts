import { Code, GroupId, type GoodsPart, type Page, type ThreadDetail, type ThreadItem } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

/** Thread parts (content.indexes) through the goods card (part 104): the frame every part uses. */
const t = useTestServer();

const CARD = {
  title: '机械键盘 87 键',
  price: '299.00',
  imagePath: 'https://shop.example.com/k.jpg',
  detailContent: 'https://shop.example.com/item/1',
  type: 2,
};

const create = (token: string, indexes: unknown, extra: Record<string, unknown> = {}) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title: '好物推荐', content: { text: '推荐一个键盘', indexes }, ...extra },
    token,
  );

const partRows = (threadId: number) =>
  t.app.ctx.db.selectFrom('threadParts').selectAll().where('threadId', '=', threadId).execute();

describe('a goods card in content.indexes', () => {
  it('is stored with the thread and answered in the family shape to the author, a stranger and a guest', async () => {
    const author = await t.buildMember();
    const res = await create(author.token, { 104: { tomId: 104, operation: 'create', body: CARD } });
    expect(res.Code).toBe(0);
    const card = res.Data.content.indexes['104']!;
    expect(card).toEqual({
      tomId: '104',
      operation: 'select',
      threadId: res.Data.threadId,
      body: { ...CARD } satisfies GoodsPart,
    });
    expect(res.Data.parts).toEqual([104]);

    const stranger = await t.buildMember();
    for (const token of [stranger.token, undefined]) {
      const detail = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${res.Data.threadId}`, token);
      expect(detail.Data.content.indexes['104']?.body).toEqual(CARD);
    }
    const list = await t.get<Page<ThreadItem>>('/api/v3/thread.list?filter[sort]=1&perPage=50');
    const item = list.Data.pageData.find((x) => x.threadId === res.Data.threadId)!;
    expect(item.parts).toEqual([104]);
    expect([item.isRedPack, item.isReward, item.isVote]).toEqual([false, false, false]);
  });

  it('takes a thread whose only content is a part (no text)', async () => {
    const author = await t.buildMember();
    const res = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: '只有商品', content: { text: '', indexes: { 104: { tomId: '104', body: CARD } } } },
      author.token,
    );
    expect(res.Code).toBe(0);
    const none = await t.post(
      '/api/v3/thread.create',
      { categoryId: 1, title: 'x', content: { text: ' ' } },
      author.token,
    );
    expect(none.Code).toBe(Code.INVALID_PARAMETER);
  });

  it('is updated and deleted through thread.update; a thread left with neither text nor parts is refused', async () => {
    const author = await t.buildMember();
    const made = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: '只有商品', content: { text: '', indexes: { 104: { tomId: '104', body: CARD } } } },
      author.token,
    );
    const id = made.Data.threadId;
    const changed = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: id, content: { text: '', indexes: { 104: { tomId: '104', body: { ...CARD, price: 199 } } } } },
      author.token,
    );
    expect(changed.Code).toBe(0);
    expect((changed.Data.content.indexes['104']!.body as GoodsPart).price).toBe('199.00');

    const emptied = await t.post(
      '/api/v3/thread.update',
      { threadId: id, content: { text: '', indexes: { 104: { tomId: '104', operation: 'delete' } } } },
      author.token,
    );
    expect(emptied.Code).toBe(Code.INVALID_PARAMETER);
    expect(await partRows(id)).toHaveLength(1);

    const removed = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: id, content: { text: '现在有字了', indexes: { 104: { tomId: '104', operation: 'delete' } } } },
      author.token,
    );
    expect(removed.Code).toBe(0);
    expect(removed.Data.content.indexes).toEqual({});
    expect(removed.Data.parts).toEqual([]);
    expect(await partRows(id)).toHaveLength(0);
  });

  it('refuses bad cards with a sentence naming the field, and stores nothing', async () => {
    const author = await t.buildMember();
    const before = await t.app.ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: [unknown, string, string][] = [
      [
        { 104: { tomId: 104, body: { ...CARD, detailContent: 'javascript:alert(1)' } } },
        'content.indexes.104.body.detailContent',
        '地址需要是 http:// 或 https:// 开头的网址',
      ],
      [{ 104: { tomId: 104, body: { ...CARD, title: '' } } }, 'content.indexes.104.body.title', '商品名称不能为空'],
      [{ 104: { tomId: 104, body: { ...CARD, price: -1 } } }, 'content.indexes.104.body.price', '商品价格'],
      [{ 104: { tomId: 104 } }, 'content.indexes.104.body', ''],
      [{ 999: { tomId: 999, body: {} } }, 'content.indexes.999.tomId', '不支持的帖子组件类型'],
      [{ 109: { tomId: 104, body: CARD } }, 'content.indexes.109.tomId', ''],
    ];
    for (const [indexes, field, zh] of cases) {
      const res = await create(author.token, indexes);
      expect(res.Code, field).toBe(Code.INVALID_PARAMETER);
      expect((res.Data as unknown as { field: string }).field).toBe(field);
      if (zh) expect(res.Message).toContain(zh);
      expect(res.Message).not.toMatch(/invalid_|Expected|undefined/);
    }
    const after = await t.app.ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("is refused without the group's thread.insertGoods in the category, in the page's language", async () => {
    const member = await t.buildMember();
    const group = await t.buildGroup(['viewThreads', 'thread.viewPosts', 'createThread'], [member]);
    expect(group).toBeGreaterThan(GroupId.MEMBER);
    const { body: res } = (await t.call('POST', '/api/v3/thread.create', {
      token: member.token,
      body: { categoryId: 1, title: 't', content: { text: 'x', indexes: { 104: { tomId: 104, body: CARD } } } },
      headers: { cookie: 'locale=en' },
    })) as { body: { Code: number; Message: string } };
    expect(res.Code).toBe(Code.UNAUTHORIZED);
    expect(res.Message).toBe('You may not insert goods in this category');
    // Granted in another category only: still refused here, allowed there.
    const other = await t.buildCategory();
    await t.post(
      '/api/permission.v2',
      {
        groupId: group,
        permissions: [
          'viewThreads',
          'thread.viewPosts',
          'createThread',
          `category${other}.createThread`,
          `category${other}.thread.insertGoods`,
          `category${other}.viewThreads`,
        ],
      },
      t.admin,
    );
    const there = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: other, title: 't', content: { text: 'x', indexes: { 104: { tomId: 104, body: CARD } } } },
      member.token,
    );
    expect(there.Code).toBe(0);
  });
});
