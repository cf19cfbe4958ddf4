import { Code, type SessionData, type SiteInfo } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

const setSite = async (key: string, value: string | boolean) => {
  const res = await t.post('/api/settings.v2', { data: [{ key, value, tag: 'default' }] }, admin);
  expect(res.Code).toBe(0);
};

describe('a closed site', () => {
  it('answers -3005 to guests and members, lets administrators in, and opens again', async () => {
    const member = await buildUser(t);
    expect((await t.get('/api/v3/thread.list', member.token)).Code).toBe(0);
    await setSite('siteCloseMsg', '维护中，明天见');
    await setSite('siteClose', true);
    try {
      const guest = await t.get<{ siteCloseMsg: string }>('/api/v3/thread.list');
      expect(guest.Code).toBe(Code.SITE_CLOSED);
      expect(guest.Data.siteCloseMsg).toBe('维护中，明天见');
      expect((await t.get('/api/v3/thread.list', member.token)).Code).toBe(Code.SITE_CLOSED);
      expect((await t.get('/api/v3/categories', member.token)).Code).toBe(Code.SITE_CLOSED);
      // Reading the site (and its notice) stays open, so the client can show why.
      const site = await t.get<SiteInfo>('/api/siteinfo.v2');
      expect(site).toMatchObject({ Code: 0, Data: { siteClose: true, siteCloseMsg: '维护中，明天见' } });
      expect((await t.get('/api/v3/forum', member.token)).Code).toBe(0);
      // Nobody new signs up, members cannot sign in, an administrator can.
      expect(
        (await t.post('/api/v3/users/username.register', { username: 'closed_1', password: 'secret1' })).Code,
      ).toBe(Code.SITE_CLOSED);
      expect(
        (await t.post('/api/v3/users/username.login', { username: member.username, password: member.password })).Code,
      ).toBe(Code.SITE_CLOSED);
      const wrong = await t.post('/api/v3/users/username.login', { username: member.username, password: 'wrong-pass' });
      expect(wrong.Code).toBe(Code.LOGIN_FAILED);
      const adminAgain = await t.post<SessionData>('/api/v3/users/username.login', ADMIN);
      expect(adminAgain.Code).toBe(0);
      expect((await t.get('/api/v3/thread.list', adminAgain.Data.accessToken)).Code).toBe(0);
      expect((await t.get('/api/groups.list.v2', admin)).Code).toBe(0);
    } finally {
      await setSite('siteClose', false);
    }
    expect((await t.get('/api/v3/thread.list', member.token)).Code).toBe(0);
    expect((await t.get('/api/v3/thread.list')).Code).toBe(0);
  });
});

describe('registration settings', () => {
  it('refuses sign-ups while registration is closed, with a message in the viewer locale', async () => {
    await setSite('registerClose', true);
    try {
      const zh = await t.post('/api/v3/users/username.register', { username: 'reg_closed', password: 'secret1' });
      expect(zh).toMatchObject({ Code: Code.UNAUTHORIZED, Message: '站点已关闭注册' });
      const en = await t.call('POST', '/api/v3/users/username.register', {
        body: { username: 'reg_closed', password: 'secret1' },
        headers: { cookie: 'locale=en' },
      });
      expect(en.body).toMatchObject({ Code: Code.UNAUTHORIZED, Message: 'registration is closed' });
    } finally {
      await setSite('registerClose', false);
    }
    expect(
      (await t.post('/api/v3/users/username.register', { username: 'reg_closed', password: 'secret1' })).Code,
    ).toBe(0);
  });

  it('puts new users under review when registrations are reviewed', async () => {
    await setSite('registerValidate', true);
    try {
      const res = await t.post<SessionData>('/api/v3/users/username.register', {
        username: 'reviewed_1',
        password: 'secret1',
      });
      expect(res).toMatchObject({ Code: 0, Data: { userStatus: 2 } });
      // Until an administrator approves: -3003 (go to audit), but the site and logout stay open.
      expect((await t.get('/api/v3/thread.list', res.Data.accessToken)).Code).toBe(Code.JUMP_TO_AUDIT);
      expect((await t.get('/api/v3/forum', res.Data.accessToken)).Code).toBe(0);
      const again = await t.post('/api/v3/users/username.login', { username: 'reviewed_1', password: 'secret1' });
      expect(again.Code).toBe(Code.JUMP_TO_AUDIT);
    } finally {
      await setSite('registerValidate', false);
    }
  });
});
