import { Code, renderTemplate, type NotificationTplGroup, type NotificationTplItem, type Page } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';
import { DEFAULT_TEMPLATES } from './default-templates.js';
import { renderNotification } from './notification-templates.service.js';

const t = useTestServer();

const groups = async (query = 'perPage=50') =>
  (await t.get<Page<NotificationTplGroup>>(`/api/notification.v2/tpl?${query}`, t.admin)).Data;
const detail = async (typeName: string) =>
  (
    await t.get<NotificationTplItem[]>(
      `/api/notification.v2/tpl/detail?typeName=${encodeURIComponent(typeName)}`,
      t.admin,
    )
  ).Data;
const update = (body: unknown, token = t.admin) =>
  t.post<NotificationTplItem>('/api/backAdmin/notification/tpl/update', body, token);

describe('renderTemplate', () => {
  it('fills placeholders, empties missing ones and leaves other braces alone', () => {
    expect(
      renderTemplate(
        { title: '欢迎加入{sitename}', content: '{username}，你好 {x} {A} {}' },
        { sitename: '论坛', username: 42 },
      ),
    ).toEqual({
      title: '欢迎加入论坛',
      content: '42，你好  {A} {}',
    });
  });
});

describe('the seeded templates', () => {
  it("holds the family's 25 type names and our follow notice on the in-site channel, in order, each with its variables", async () => {
    const list = await groups();
    expect(list.totalCount).toBe(DEFAULT_TEMPLATES.length);
    expect(list.pageData.map((g) => g.name)).toEqual(DEFAULT_TEMPLATES.map((d) => d.typeName));
    expect(list.pageData[0]!.typeStatus).toEqual([
      expect.objectContaining({ type: 0, status: 1, title: '欢迎加入{sitename}' }),
    ]);
    for (const d of DEFAULT_TEMPLATES) {
      const [tpl] = await detail(d.typeName);
      expect(Object.keys(tpl!.vars).sort()).toEqual(Object.keys(d.vars).sort());
      // Every placeholder used is declared.
      for (const p of `${tpl!.title}${tpl!.content}`.match(/\{[a-z_]+\}/g) ?? []) expect(tpl!.vars).toHaveProperty([p]);
    }
  });

  it('pages and filters by a part of the name and by status', async () => {
    const page = await groups('page=2&perPage=10');
    expect(page).toMatchObject({
      currentPage: 2,
      perPage: 10,
      totalCount: DEFAULT_TEMPLATES.length,
      totalPage: Math.ceil(DEFAULT_TEMPLATES.length / 10),
    });
    expect(page.pageData).toHaveLength(10);
    expect((await groups(`name=${encodeURIComponent('审核')}`)).pageData.map((g) => g.name)).toEqual([
      '注册审核通过通知',
      '注册审核不通过通知',
      '内容审核不通过通知',
      '内容审核通过通知',
    ]);
    expect((await groups('typeStatus=0')).totalCount).toBe(0);
    for (const bad of ['typeStatus=2', 'perPage=51', 'page=0']) {
      expect((await t.get(`/api/notification.v2/tpl?${bad}`, t.admin)).Code).toBe(Code.INVALID_PARAMETER);
    }
  });
});

describe('editing templates', () => {
  it('switches a template off and on, and changes its title and content; rendering follows', async () => {
    const [tpl] = await detail('内容回复通知');
    const changed = await update({ id: tpl!.id, title: '新回复', content: '{actor} 说：{content}' });
    expect(changed.Data).toMatchObject({ title: '新回复', content: '{actor} 说：{content}', status: 1 });
    const db = t.server.database.db;
    expect(await renderNotification(db, 'post.replied', { actor: '张三', content: '你好' })).toEqual({
      title: '新回复',
      content: '张三 说：你好',
    });
    expect(await renderNotification(db, '内容回复通知', { actor: 'x', content: 'y' })).not.toBeNull();
    expect((await update({ id: tpl!.id, status: 0 })).Data.status).toBe(0);
    expect(await renderNotification(db, 'post.replied', { actor: '张三', content: '你好' })).toBeNull();
    expect((await groups('typeStatus=0')).pageData.map((g) => g.name)).toEqual(['内容回复通知']);
    expect((await update({ id: tpl!.id, status: 1 })).Data.status).toBe(1);
    expect(await renderNotification(db, 'no.such.type', {})).toBeNull();
    expect(await renderNotification(db, 'post.replied', {}, 1)).toBeNull();
  });

  it.each([
    [
      'an unknown placeholder',
      (id: number) => ({ id, content: 'hello {password}' }),
      Code.INVALID_PARAMETER,
      'content',
    ],
    ['an empty title', (id: number) => ({ id, title: ' ' }), Code.INVALID_PARAMETER, 'title'],
    ['status 2', (id: number) => ({ id, status: 2 }), Code.INVALID_PARAMETER, 'status'],
    ['a long content', (id: number) => ({ id, content: 'x'.repeat(2001) }), Code.INVALID_PARAMETER, 'content'],
    ['no id', () => ({ title: 'x' }), Code.INVALID_PARAMETER, 'id'],
    ['a missing template', () => ({ id: 99999, title: 'x' }), Code.RESOURCE_NOT_FOUND, 'id'],
  ])('refuses %s and changes nothing', async (_n, body, code, field) => {
    const [before] = await detail('用户禁用通知');
    const res = await update(body(before!.id));
    expect(res.Code).toBe(code);
    expect(res.Data).toMatchObject({ field });
    expect((await detail('用户禁用通知'))[0]).toEqual(before);
  });

  it('answers -4004 for an unknown type name and -4001 without one', async () => {
    expect((await t.get('/api/notification.v2/tpl/detail?typeName=nope', t.admin)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/notification.v2/tpl/detail', t.admin)).Code).toBe(Code.INVALID_PARAMETER);
  });
});

describe('guests and members are refused and nothing changes', () => {
  it.each([
    ['GET', '/api/notification.v2/tpl'],
    ['GET', `/api/notification.v2/tpl/detail?typeName=${encodeURIComponent('用户禁用通知')}`],
    ['POST', '/api/backAdmin/notification/tpl/update'],
  ])('%s %s', async (method, url) => {
    const [before] = await detail('用户禁用通知');
    const member = await buildUser(t);
    const body = method === 'POST' ? { id: before!.id, title: 'hijacked', status: 0 } : undefined;
    expect((await t.call(method as 'GET', url, { body })).body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.call(method as 'GET', url, { body, token: member.token })).body.Code).toBe(Code.UNAUTHORIZED);
    expect((await detail('用户禁用通知'))[0]).toEqual(before);
  });
});
