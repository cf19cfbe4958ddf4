import { expect, it } from 'vitest';
import { ADMIN, startTestServer } from '../test/harness.js';
it('answers odd input to the back-office calls with an envelope, never a 500', async () => {
  const t = await startTestServer();
  const admin = await t.login(ADMIN.username, ADMIN.password);
  const junk: unknown[] = [
    null,
    1,
    'x',
    [],
    {},
    { data: null },
    { data: {} },
    { data: [null] },
    { data: [{}] },
    { id: -1 },
    { id: 1e20 },
    { ids: '1'.repeat(50) },
    { ids: ',' },
    { data: { type: 'stop-words', words: ['\\'] } },
    { data: { type: 'stop-words', words: ['a={1}'] } },
    { data: [{ id: 1, value: {} }] },
    { name: 'x', type: 2, sort: 1, fieldsExt: '[1,2]' },
    { name: 'x', type: 2, sort: 1, fieldsExt: '{"options":"a"}' },
    { id: 1, status: 1, fieldsExt: null },
    { type: 'post', ids: '99999999999', action: 'approve' },
  ];
  const posts = [
    '/api/groups.create.v2',
    '/api/groups/batchupdate.v2',
    '/api/groups.batchdelete.v2',
    '/api/backAdmin/users/update.user',
    '/api/backAdmin/users/examine',
    '/api/stop-words/batch.v2',
    '/api/backAdmin/manage.submit.review',
    '/api/admin/signinfields.create.v2',
    '/api/admin/signinfields.update.v2',
    '/api/admin/signinfields.examine.v2',
    '/api/v3/user/signinfields.create',
    '/api/backAdmin/notification/tpl/update',
    '/api/v3/users/username.register',
  ];
  for (const url of posts)
    for (const body of junk) {
      const res = await t.call('POST', url, {
        token: admin,
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });

      expect(res.status).toBeLessThan(500);
    }
  const gets = [
    '/api/backAdmin/users?filter=x',
    '/api/backAdmin/users?filter[username][]=a',
    '/api/backAdmin/users?filter[username]=%5C',
    '/api/stop-words.v2?filter[a]=1',
    '/api/stop-words.v2?filter=%5C',
    '/api/backAdmin/manage.thread.list?filter=1',
    '/api/notification.v2/tpl?name[]=1',
    '/api/notification.v2/tpl/detail?typeName[a]=1',
    '/api/user/signinfields.list.v2?userId=1e3',
    '/api/backAdmin/user?userId=99999999999',
  ];
  for (const url of gets) {
    const res = await t.call('GET', url, { token: admin });

    expect(res.status).toBeLessThan(500);
  }
  for (const url of ['/api/stop-words.v2?id[]=1', '/api/stop-words.v2?id=99999999999']) {
    const res = await t.call('DELETE', url, {
      token: admin,
      body: '"x"',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBeLessThan(500);
  }
  await t.close();
});
