import { Code, type CategoryItem } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';
import { buildThread } from '../../test/factories.js';

const t = useTestServer();

const categories = async (token?: string) => (await t.get<CategoryItem[]>('/api/v3/categories', token)).Data;

describe('categories', () => {
  it('a fresh site has one default category, which a guest sees but cannot post in', async () => {
    const list = await categories();
    expect(list).toEqual([
      {
        categoryId: 1,
        name: '默认分类',
        description: '',
        icon: '',
        sort: 0,
        parentId: 0,
        threadCount: 0,
        canViewThreads: true,
        canCreateThread: false,
        children: [],
      },
    ]);
    const member = await buildUser(t);
    expect((await categories(member.token))[0]!.canCreateThread).toBe(true);
  });

  it('lets the administrator create, nest, sort, change and delete categories', async () => {
    const create = (body: object) => t.post<{ categoryId: number }>('/api/backAdmin/categories.create', body, t.admin);
    const top = (await create({ name: '技术', description: '写代码', sort: -1 })).Data.categoryId;
    const sub = (await create({ name: '前端', parentId: top })).Data.categoryId;
    const list = await categories();
    expect(list.map((c) => c.categoryId)).toEqual([top, 1]);
    expect(list[0]!.children.map((c) => c.categoryId)).toEqual([sub]);

    expect((await create({ name: '孙子', parentId: sub })).Data).toMatchObject({ field: 'parentId' });
    expect((await create({ name: '' })).Data).toMatchObject({ field: 'name' });
    expect((await create({ name: 'x'.repeat(31) })).Data).toMatchObject({ field: 'name' });

    const up = await t.post('/api/backAdmin/categories.update', { id: sub, name: 'Web 前端', sort: 3 }, t.admin);
    expect(up.Code).toBe(0);
    expect((await categories())[0]!.children[0]!.name).toBe('Web 前端');
    expect((await t.post('/api/backAdmin/categories.update', { id: 404, name: 'x' }, t.admin)).Code).toBe(
      Code.CATEGORY_NOT_FOUND,
    );
    expect((await t.post('/api/backAdmin/categories.update', { id: top, parentId: 1 }, t.admin)).Data).toMatchObject({
      field: 'parentId',
    });

    expect((await t.post('/api/backAdmin/categories.delete', { id: top }, t.admin)).Code).toBe(Code.RESOURCE_IN_USE);
    const member = await buildUser(t);
    await buildThread(t, member.token, { categoryId: sub });
    expect((await t.post('/api/backAdmin/categories.delete', { id: sub }, t.admin)).Code).toBe(Code.RESOURCE_IN_USE);
    const empty = (await create({ name: '空' })).Data.categoryId;
    expect((await t.post('/api/backAdmin/categories.delete', { id: empty }, t.admin)).Code).toBe(0);
    expect((await t.post('/api/backAdmin/categories.delete', { id: empty }, t.admin)).Code).toBe(
      Code.CATEGORY_NOT_FOUND,
    );
  });

  it('keeps category management to the administrator', async () => {
    const member = await buildUser(t);
    expect((await t.post('/api/backAdmin/categories.create', { name: 'x' })).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.post('/api/backAdmin/categories.create', { name: 'x' }, member.token)).Code).toBe(
      Code.UNAUTHORIZED,
    );
    expect((await t.post('/api/backAdmin/categories.delete', { id: 1 }, member.token)).Code).toBe(Code.UNAUTHORIZED);
  });

  it('deletes a category that holds threads by moving them, counts and all, in one transaction', async () => {
    const from = (await t.post<{ categoryId: number }>('/api/backAdmin/categories.create', { name: '旧分类' }, t.admin))
      .Data.categoryId;
    const to = (await t.post<{ categoryId: number }>('/api/backAdmin/categories.create', { name: '新分类' }, t.admin))
      .Data.categoryId;
    const threads = [
      await buildThread(t, t.admin, { categoryId: from }),
      await buildThread(t, t.admin, { categoryId: from }),
    ];
    const count = async (id: number) => (await categories()).find((c) => c.categoryId === id)!.threadCount;
    expect(await count(from)).toBe(2);

    // Refused: the same category, a missing target; nothing moves.
    const self = await t.post('/api/backAdmin/categories.delete', { id: from, moveThreadsTo: from }, t.admin);
    expect(self.Code).toBe(Code.INVALID_PARAMETER);
    const missing = await t.post('/api/backAdmin/categories.delete', { id: from, moveThreadsTo: 999_999 }, t.admin);
    expect(missing.Code).toBe(Code.CATEGORY_NOT_FOUND);
    expect(await count(from)).toBe(2);

    const moved = await t.post('/api/backAdmin/categories.delete', { id: from, moveThreadsTo: to }, t.admin);
    expect(moved.Code).toBe(0);
    expect((await categories()).some((c) => c.categoryId === from)).toBe(false);
    expect(await count(to)).toBe(2);
    for (const thread of threads) {
      const detail = await t.get<{ categoryId: number }>(`/api/v3/thread.detail?threadId=${thread.threadId}`, t.admin);
      expect(detail.Data.categoryId).toBe(to);
    }
  });
});

describe('GET /api/v3/categories.thread', () => {
  const postable = (token?: string) => t.get<CategoryItem[]>('/api/v3/categories.thread', token);

  it('lists, as a tree, only the categories in which the member may post a thread', async () => {
    const top = await t.buildCategory();
    const sub = (
      await t.post<{ categoryId: number }>('/api/backAdmin/categories.create', { name: '子', parentId: top }, t.admin)
    ).Data.categoryId;
    const member = await t.buildMember();
    const all = (await postable(member.token)).Data;
    expect(all.map((c) => c.categoryId)).toEqual(expect.arrayContaining([1, top]));
    expect(all.find((c) => c.categoryId === top)!.children.map((c) => c.categoryId)).toEqual([sub]);
    expect(all.every((c) => c.canCreateThread)).toBe(true);

    // Allowed in the sub-category only: its parent stays as the way to it, the default category goes.
    const limited = await t.buildMember();
    await t.buildGroup(['viewThreads', `category${sub}.createThread`], [limited]);
    const only = (await postable(limited.token)).Data;
    expect(only.map((c) => c.categoryId)).toEqual([top]);
    expect(only[0]!.canCreateThread).toBe(false);
    expect(only[0]!.children).toEqual([expect.objectContaining({ categoryId: sub, canCreateThread: true })]);

    // Allowed nowhere: an empty list.
    const none = await t.buildMember();
    await t.buildGroup(['viewThreads'], [none]);
    expect((await postable(none.token)).Data).toEqual([]);
  });

  it('asks a guest to sign in', async () => {
    const res = await postable();
    expect(res.Code).toBe(Code.JUMP_TO_LOGIN);
  });
});
