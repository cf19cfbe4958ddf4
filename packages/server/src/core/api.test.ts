import { Code, type UnreadCounters } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildUser, startTestServer } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

const t = useTestServer();

describe('the envelope and the error codes', () => {
  it('answers an unknown /api path with -4004 in the envelope and HTTP 404, for every method', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'PUT'] as const) {
      const res = await t.call(method, '/api/v3/no.such.call');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(['Code', 'Data', 'Message', 'RequestId', 'RequestTime']);
      expect(res.body.Code).toBe(Code.RESOURCE_NOT_FOUND);
    }
  });

  it('answers malformed JSON, an empty JSON body and an unsupported type with -4001', async () => {
    const bad = await t.call('POST', '/api/v3/users/username.login', {
      body: '{"username": "a", ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.body).toMatchObject({
      Code: Code.INVALID_PARAMETER,
      Message: '提交的内容不是有效的 JSON',
      Data: { field: 'body' },
    });
    const empty = await t.call('POST', '/api/v3/users/username.login', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.body.Code).toBe(Code.INVALID_PARAMETER);
    const xml = await t.call('POST', '/api/v3/users/username.login', {
      body: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.body).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'content-type' } });
    expect(xml.body.Message).toBe('不支持这种提交格式');
  });

  it('answers a body over the limit with -4001 and HTTP 413', async () => {
    const res = await t.call('POST', '/api/v3/users/username.login', {
      body: JSON.stringify({ username: 'x'.repeat(2_000_000), password: 'y' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.Code).toBe(Code.INVALID_PARAMETER);
  });

  it('answers -5002 with no detail when something unexpected breaks, and logs it', async () => {
    const broken = await startTestServer();
    await broken.server.database.db.schema.dropTable('access_tokens').execute();
    const res = await broken.call('POST', '/api/v3/users/username.login', {
      body: { username: 'admin', password: 'admin-password-1' },
    });
    expect(res.status).toBe(500);
    expect(res.body.Code).toBe(Code.INTERNAL_ERROR);
    expect(JSON.stringify(res.body)).not.toMatch(/access_tokens|stack|at \w+ \(/);
    await broken.close();
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/v3/users/username.register']?.post?.requestBody).toBeDefined();
    expect(JSON.stringify(doc.paths['/api/settings.v2'])).toContain('"tag"');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('unread counters', () => {
  it('needs a login', async () => {
    expect((await t.get('/api/v3/unreadnotification')).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('counts the unread notifications of the viewer per category', async () => {
    const u = await buildUser(t);
    const other = await buildUser(t);
    const at = new Date().toISOString();
    const row = (userId: number, category: string, readAt: string | null = null) => ({
      userId,
      type: 'system',
      category,
      title: 't',
      content: 'c',
      data: '{}',
      readAt,
      createdAt: at,
    });
    await t.server.database.db
      .insertInto('notifications')
      .values([
        row(u.id, 'account'),
        row(u.id, 'account'),
        row(u.id, 'thread'),
        row(u.id, 'financial', at),
        row(other.id, 'thread'),
      ])
      .execute();
    const res = await t.get<UnreadCounters>('/api/v3/unreadnotification', u.token);
    expect(res.Data).toEqual({
      totalUnread: 3,
      dialogMessageUnread: 0,
      accountUnread: 2,
      financialUnread: 0,
      threadUnread: 1,
    });
  });
});
