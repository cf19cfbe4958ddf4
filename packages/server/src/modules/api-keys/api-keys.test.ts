import { Code, type ApiKeyCreated, type ApiKeyItem, type Forum, type ThreadDetail } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { startTestServer } from '../../test/harness.js';

describe('API keys', () => {
  const t = useTestServer();

  const make = async (body: Record<string, unknown>) => {
    const res = await t.post<ApiKeyCreated>('/api/backAdmin/apikeys', body, t.admin);
    expect(res.Code, res.Message).toBe(0);
    return res.Data;
  };
  const list = async () => (await t.get<ApiKeyItem[]>('/api/backAdmin/apikeys', t.admin)).Data;
  const newThread = (key: string) =>
    t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: '用密钥发的帖', content: { text: '正文' } },
      key,
    );

  it('is made by administrators only, with a name, a scope and maybe a member; the key is shown once', async () => {
    const member = await t.buildMember();
    expect((await t.post('/api/backAdmin/apikeys', { name: 'x', scope: 'read' }, member.token)).Code).toBe(
      Code.UNAUTHORIZED,
    );
    const bad = await t.post('/api/backAdmin/apikeys', { name: 'x', scope: 'root' }, t.admin);
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).toContain('权限范围');
    expect((await t.post('/api/backAdmin/apikeys', { name: '', scope: 'read' }, t.admin)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    const nobody = await t.post('/api/backAdmin/apikeys', { name: 'x', scope: 'read', userId: 999_999 }, t.admin);
    expect(nobody.Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(nobody.Data).toMatchObject({ field: 'userId' });

    const made = await make({ name: '统计脚本', scope: 'read' });
    expect(made.key).toMatch(/^lt_[A-Za-z0-9]{40}$/);
    expect(made.keyPrefix).toBe(made.key.slice(0, 8));
    const listed = (await list()).find((k) => k.id === made.id)!;
    expect(listed).toMatchObject({ name: '统计脚本', scope: 'read', keyPrefix: made.keyPrefix, revokedAt: null });
    expect(JSON.stringify(await list())).not.toContain(made.key);
    // Only its hash is kept.
    const row = await t.app.ctx.db
      .selectFrom('apiKeys')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(made.key.slice(8));
  });

  it('a read key reads as its member and may not write or reach the back office', async () => {
    const member = await t.buildMember({ nickname: '读者' });
    const made = await make({ name: 'reader', scope: 'read', userId: member.id });
    const forum = await t.get<Forum>('/api/v3/forum', made.key);
    expect(forum.Data.user?.userId).toBe(member.id);
    expect((await t.get('/api/v3/thread.list', made.key)).Code).toBe(0);
    const write = await newThread(made.key);
    expect(write.Code).toBe(Code.UNAUTHORIZED);
    expect(write.Message).toBe('这个 API 密钥只能读取，不能写入');
    expect((await list()).find((k) => k.id === made.id)!.lastUsedAt).not.toBeNull();
  });

  it('a write key writes as its member; the back office needs the admin scope, and an administrator behind it', async () => {
    const member = await t.buildMember({ nickname: '写手' });
    const writer = await make({ name: 'writer', scope: 'write', userId: member.id });
    const posted = await newThread(writer.key);
    expect(posted.Code, posted.Message).toBe(0);
    expect(posted.Data.user.userId).toBe(member.id);
    const refused = await t.get('/api/backAdmin/apikeys', writer.key);
    expect(refused.Code).toBe(Code.UNAUTHORIZED);
    expect(refused.Message).toBe('这个 API 密钥不能访问管理后台');

    // A write key of an administrator: still no back office (the admin routes' guard checks the scope too).
    const adminWriter = await make({ name: 'admin writer', scope: 'write' });
    expect((await t.get('/api/backAdmin/apikeys', adminWriter.key)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.post('/api/settings.v2', { data: [] }, adminWriter.key)).Code).toBe(Code.UNAUTHORIZED);
    const admin = await make({ name: 'admin', scope: 'admin' });
    expect((await t.get('/api/backAdmin/apikeys', admin.key)).Code).toBe(0);
    // An admin-scope key acting as a member is that member: no back office.
    const memberAdminScope = await make({ name: 'member admin scope', scope: 'admin', userId: member.id });
    expect((await t.get('/api/backAdmin/apikeys', memberAdminScope.key)).Code).toBe(Code.UNAUTHORIZED);
  });

  it('stops working the moment it is revoked, in every process', async () => {
    const made = await make({ name: 'revoked soon', scope: 'write' });
    // A second app on the same database stands for another process; it has the key in its viewer cache.
    const other = await startTestServer({ storage: t.storage });
    try {
      expect((await other.get<Forum>('/api/v3/forum', made.key)).Data.user).not.toBeNull();
      const revoked = await t.call<ApiKeyItem>('DELETE', `/api/backAdmin/apikeys/${made.id}`, { token: t.admin });
      expect(revoked.body.Code, revoked.body.Message).toBe(0);
      expect(revoked.body.Data.revokedAt).not.toBeNull();
      expect((await other.get<Forum>('/api/v3/forum', made.key)).Data.user).toBeNull();
      expect((await t.get<Forum>('/api/v3/forum', made.key)).Data.user).toBeNull();
      expect((await newThread(made.key)).Code).toBe(Code.JUMP_TO_LOGIN);
    } finally {
      await other.close({ keep: true });
    }
    const missing = await t.call('DELETE', '/api/backAdmin/apikeys/999999', { token: t.admin });
    expect(missing.body.Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{
      components: { securitySchemes: Record<string, { bearerFormat?: string }> };
      paths: Record<string, unknown>;
    }>();
    expect(doc.components.securitySchemes.apiKey?.bearerFormat).toBe('lt_<40 characters>');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/backAdmin/apikeys', '/api/backAdmin/apikeys/{id}']),
    );
  });
});

describe('API keys: each its own budget of requests', () => {
  const t = useTestServer({ env: { RATE_LIMIT_API_KEY: '5' } });

  it('answers -4029 beyond RATE_LIMIT_API_KEY a minute, for that key only', async () => {
    const make = async (name: string) =>
      (await t.post<ApiKeyCreated>('/api/backAdmin/apikeys', { name, scope: 'read' }, t.admin)).Data.key;
    const first = await make('one');
    const second = await make('two');
    for (let i = 0; i < 5; i++) expect((await t.get('/api/v3/thread.list', first)).Code).toBe(0);
    const over = await t.call('GET', '/api/v3/thread.list', { token: first });
    expect(over.body.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(over.status).toBe(429);
    expect((await t.get('/api/v3/thread.list', second)).Code).toBe(0);
    // The session of the administrator who made them is not counted.
    expect((await t.get('/api/v3/thread.list', t.admin)).Code).toBe(0);
  });
});
