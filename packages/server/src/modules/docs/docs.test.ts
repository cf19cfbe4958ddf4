import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

type Operation = { requestBody?: unknown; parameters?: { name: string; in: string }[] };

describe('the OpenAPI document', () => {
  it('shows the request schemas of the back-office calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
    const body = (path: string) => JSON.stringify(paths[path]?.post?.requestBody ?? null);
    const query = (path: string, method = 'get') => (paths[path]?.[method]?.parameters ?? []).map((p) => p.name);

    expect(body('/api/groups.create.v2')).toContain('"isPaid"');
    expect(body('/api/groups/batchupdate.v2')).toContain('"isSubordinate"');
    expect(body('/api/groups.batchdelete.v2')).toContain('"ids"');
    expect(body('/api/backAdmin/users/update.user')).toContain('"groupIds"');
    expect(body('/api/backAdmin/users/examine')).toContain('"rejectReason"');
    expect(body('/api/stop-words/batch.v2')).toContain('"overwrite"');
    expect(body('/api/backAdmin/manage.submit.review')).toContain('"action"');
    expect(body('/api/admin/signinfields.create.v2')).toContain('"fieldsExt"');
    expect(body('/api/admin/signinfields.update.v2')).toContain('"status"');
    expect(body('/api/v3/user/signinfields.create')).toContain('"data"');
    expect(body('/api/v3/users/username.register')).toContain('"signinFields"');
    expect(body('/api/backAdmin/notification/tpl/update')).toContain('"content"');
    expect(query('/api/stop-words.v2')).toEqual(expect.arrayContaining(['page', 'perPage', 'filter']));
    expect(query('/api/stop-words.v2', 'delete')).toContain('id');
    expect(query('/api/notification.v2/tpl')).toEqual(expect.arrayContaining(['name', 'typeStatus']));
    expect(query('/api/notification.v2/tpl/detail')).toContain('typeName');
    expect(query('/api/admin/signinfields.resource.v2')).toContain('id');
    expect(query('/api/user/signinfields.list.v2')).toContain('userId');
    expect(query('/api/backAdmin/user')).toContain('userId');
    expect(paths['/api/stop-words/export.v2']?.get).toBeDefined();
    expect(paths['/api/backAdmin/manage.thread.list']?.get).toBeDefined();
    expect(paths['/api/backAdmin/manage.posts.list']?.get).toBeDefined();
  });
});
