import { Code, type NotificationItem, type Page, type ReportBatchResult, type ReportItem } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildReply, buildThread } from '../../test/factories.js';
import { ADMIN, buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

const report = (token: string | undefined, body: Record<string, unknown>) =>
  t.post<{ id: number }>('/api/v3/reports', { reason: '广告', ...body }, token);
const adminList = (query = '', token = t.admin) =>
  t.get<Page<ReportItem>>(`/api/backAdmin/reports?perPage=50${query}`, token);
const decide = (body: Record<string, unknown>, token = t.admin) =>
  t.post<ReportBatchResult>('/api/backAdmin/reports/batch', body, token);
const notices = async (token: string) =>
  (await t.get<Page<NotificationItem>>('/api/v3/notification?perPage=50', token)).Data.pageData;

describe('filing a report', () => {
  it('reports a user, a thread and a reply; the back office lists them with their targets', async () => {
    const [author, reporter] = [await buildUser(t, { nickname: '作者' }), await buildUser(t)];
    const thread = await buildThread(t, author.token, { title: '可疑的主题', text: '买东西请加微信' });
    const reply = await buildReply(t, author.token, thread.threadId, { text: '一条可疑的回复' });
    const ids = [
      await report(reporter.token, { type: 0, userId: author.id }),
      await report(reporter.token, { type: 1, threadId: thread.threadId, reason: '垃圾广告' }),
      await report(reporter.token, { type: 2, postId: reply.id, threadId: thread.threadId }),
    ].map((r) => {
      expect(r.Code).toBe(0);
      return r.Data.id;
    });
    const list = await adminList();
    expect(list.Code).toBe(0);
    const mine = list.Data.pageData.filter((r) => ids.includes(r.id));
    expect(mine.map((r) => r.type)).toEqual([2, 1, 0]);
    expect(mine[0]).toMatchObject({
      status: 0,
      reporter: { userId: reporter.id },
      target: { userId: author.id, nickname: '作者', postId: reply.id, title: '可疑的主题', excerpt: '一条可疑的回复' },
    });
    expect(mine[1]).toMatchObject({
      reason: '垃圾广告',
      target: { threadId: thread.threadId, excerpt: '买东西请加微信' },
    });
    expect(mine[2]).toMatchObject({ target: { userId: author.id, username: author.username, threadId: null } });
    const threadsOnly = await adminList('&filter[type]=1');
    expect(threadsOnly.Data.pageData.every((r) => r.type === 1)).toBe(true);
  });

  it('refuses guests, missing or invisible targets, bad reasons, oneself, and a second open report', async () => {
    const [author, reporter] = [await buildUser(t), await buildUser(t)];
    const thread = await buildThread(t, author.token);
    expect((await report(undefined, { type: 1, threadId: thread.threadId })).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await report(reporter.token, { type: 1, threadId: 999999 })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await report(reporter.token, { type: 2, postId: 999999 })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await report(reporter.token, { type: 0, userId: 999999 })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    // The first post is the thread: reported as type 1.
    expect((await report(reporter.token, { type: 2, postId: thread.postId })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    const draft = await buildThread(t, author.token, { draft: true });
    expect((await report(reporter.token, { type: 1, threadId: draft.threadId })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    const missing = await report(reporter.token, { type: 1 });
    expect(missing).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'threadId' } });
    for (const reason of ['', '   ', 'x'.repeat(201)]) {
      const bad = await report(reporter.token, { type: 1, threadId: thread.threadId, reason });
      expect(bad).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'reason' } });
    }
    expect((await report(reporter.token, { type: 3, threadId: thread.threadId })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await report(author.token, { type: 0, userId: author.id })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await report(author.token, { type: 1, threadId: thread.threadId })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await report(reporter.token, { type: 1, threadId: thread.threadId })).Code).toBe(0);
    const again = await report(reporter.token, { type: 1, threadId: thread.threadId, reason: '还是广告' });
    expect(again.Code).toBe(Code.RESOURCE_EXIST);
    expect(again.Message).toMatch(/已举报/);
    // Another member may report the same thread.
    expect((await report((await buildUser(t)).token, { type: 1, threadId: thread.threadId })).Code).toBe(0);
  });
});

describe('deciding reports', () => {
  it('handles or ignores several at once, each once; the reporter is told the outcome', async () => {
    const [author, reporter] = [await buildUser(t), await buildUser(t)];
    const a = await buildThread(t, author.token, { title: '要处理的主题' });
    const b = await buildThread(t, author.token, { title: '要忽略的主题' });
    const c = await buildThread(t, author.token, { title: '另一条' });
    const ra = (await report(reporter.token, { type: 1, threadId: a.threadId })).Data.id;
    const rb = (await report(reporter.token, { type: 1, threadId: b.threadId })).Data.id;
    const rc = (await report(reporter.token, { type: 1, threadId: c.threadId })).Data.id;

    const handled = await decide({ ids: [ra, rc], status: 1, remark: '已删除该主题' });
    expect(handled).toMatchObject({ Code: 0, Data: { updated: [ra, rc].sort((x, y) => x - y) } });
    const ignored = await decide({ ids: `${rb},${ra}`, status: 2 });
    // ra was already decided: only rb changes.
    expect(ignored.Data.updated).toEqual([rb]);

    const done = await adminList('&filter[status]=1');
    expect(done.Data.pageData.find((r) => r.id === ra)).toMatchObject({
      status: 1,
      remark: '已删除该主题',
      handler: { username: ADMIN.username },
    });
    expect((await adminList('&filter[status]=2')).Data.pageData.find((r) => r.id === rb)).toMatchObject({ status: 2 });
    expect((await adminList()).Data.pageData.some((r) => [ra, rb, rc].includes(r.id))).toBe(false);

    const told = await notices(reporter.token);
    const handledNotice = told.find((n) => n.content.includes('要处理的主题'));
    expect(handledNotice).toMatchObject({ type: 'system', title: '举报处理结果', fromUser: null });
    expect(handledNotice?.content).toContain('已处理');
    expect(handledNotice?.content).toContain('已删除该主题');
    expect(told.find((n) => n.content.includes('要忽略的主题'))?.content).toContain('未予处理');
    expect(told.filter((n) => n.title === '举报处理结果')).toHaveLength(3);

    // A decided report no longer blocks a new one on the same target.
    expect((await report(reporter.token, { type: 1, threadId: a.threadId })).Code).toBe(0);
  });

  it('is for administrators only, and checks its input', async () => {
    const member = await buildUser(t);
    expect((await adminList('', member.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await decide({ ids: [1], status: 1 }, member.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.get('/api/backAdmin/reports')).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await decide({ ids: [1], status: 0 })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await decide({ ids: [], status: 1 })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await decide({ ids: [1], status: 1, remark: 'x'.repeat(201) })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await adminList('&filter[status]=5')).Code).toBe(Code.INVALID_PARAMETER);
    expect((await decide({ ids: [999999], status: 1 })).Data).toEqual({ updated: [] });
  });
});
