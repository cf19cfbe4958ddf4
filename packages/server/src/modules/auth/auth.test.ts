import { Code, type Forum, type SessionData } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

const REGISTER = '/api/v3/users/username.register';
const LOGIN = '/api/v3/users/username.login';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('registration', () => {
  it('creates a member, answers a working token and sets the HttpOnly cookie', async () => {
    const res = await t.call<SessionData>('POST', REGISTER, {
      body: { username: '张三丰', password: 'secret1', nickname: '三丰' },
    });
    expect(res.body.Code).toBe(0);
    expect(res.body.Data.userId).toBeGreaterThan(0);
    expect(res.body.Data.userStatus).toBe(0);
    expect(typeof res.body.RequestId).toBe('string');
    expect(Number.isNaN(Date.parse(res.body.RequestTime))).toBe(false);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^access_token=[\w-]+;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=2592000/);

    const forum = await t.get<Forum>('/api/v3/forum', res.body.Data.accessToken);
    expect(forum.Data.user).toMatchObject({ userId: res.body.Data.userId, username: '张三丰', nickname: '三丰' });
    expect(forum.Data.user?.groups.map((g) => g.id)).toEqual([10]);
    expect(forum.Data.other.canCreateThread).toBe(true);

    // The cookie alone authenticates too.
    const token = /^access_token=([^;]+)/.exec(cookie)![1]!;
    const viaCookie = await t.call<Forum>('GET', '/api/v3/forum', { headers: { cookie: `access_token=${token}` } });
    expect(viaCookie.body.Data.user?.userId).toBe(res.body.Data.userId);
  });

  it('refuses a taken username, whatever its case', async () => {
    await buildUser(t, { username: 'CaseUser' });
    const res = await t.post(REGISTER, { username: 'caseuser', password: 'secret1' });
    expect(res.Code).toBe(Code.USERNAME_EXISTS);
    const check = await t.post('/api/v3/users/username.check', { username: 'CASEUSER' });
    expect(check.Code).toBe(Code.USERNAME_EXISTS);
    const free = await t.post<{ available: boolean }>('/api/v3/users/username.check', { username: 'free_name' });
    expect(free).toMatchObject({ Code: 0, Data: { available: true } });
  });

  it.each([
    ['missing username', { password: 'secret1' }, 'username'],
    ['missing password', { username: 'abc' }, 'password'],
    ['one character', { username: 'a', password: 'secret1' }, 'username'],
    ['sixteen characters', { username: 'a'.repeat(16), password: 'secret1' }, 'username'],
    ['a space inside', { username: 'a b', password: 'secret1' }, 'username'],
    ['short password', { username: 'abcd', password: '12345' }, 'password'],
    ['number as username', { username: 12345, password: 'secret1' }, 'username'],
    ['oversized password', { username: 'abcd', password: 'x'.repeat(10_000) }, 'password'],
    ['oversized nickname', { username: 'abcd', password: 'secret1', nickname: '名'.repeat(16) }, 'nickname'],
  ])('answers -4001 naming the field for %s', async (_name, body, field) => {
    const res = await t.post(REGISTER, body);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
  });

  it('accepts a two-character Chinese username and counts characters, not bytes', async () => {
    expect((await t.post(REGISTER, { username: '李四', password: 'secret1' })).Code).toBe(0);
    expect((await t.post(REGISTER, { username: '一二三四五六七八九十一二三四五', password: 'secret1' })).Code).toBe(0);
  });

  it("writes messages in the page's language: the locale cookie, else the site's default, never Accept-Language", async () => {
    const body = { username: 'nobody', password: 'whatever' };
    const message = async (headers: Record<string, string>) => (await t.call('POST', LOGIN, { body, headers })).body;
    expect((await message({ 'accept-language': 'en-US,en;q=0.9' })).Message).toBe('用户名或密码错误');
    expect((await message({ cookie: 'locale=en', 'accept-language': 'zh-CN' })).Message).toBe(
      'wrong username or password',
    );

    const admin = await t.login(ADMIN.username, ADMIN.password);
    const setSiteLocale = (value: string) =>
      t.post('/api/settings.v2', { data: [{ key: 'siteLocale', value, tag: 'default' }] }, admin);
    expect((await setSiteLocale('en')).Code).toBe(0);
    try {
      expect((await message({ 'accept-language': 'zh-CN,zh;q=0.9' })).Message).toBe('wrong username or password');
      expect((await message({ cookie: 'locale=zh' })).Message).toBe('用户名或密码错误');
      // A cookie that names no locale of ours is no choice.
      expect((await message({ cookie: 'locale=fr' })).Message).toBe('wrong username or password');
    } finally {
      expect((await setSiteLocale('zh')).Code).toBe(0);
    }
  });

  it('names the field in words, in Chinese by default and in English when the page is', async () => {
    const zh = await t.post(REGISTER, { username: 'a', password: 'secret1' });
    expect(zh).toMatchObject({ Message: '用户名至少 2 个字符', Data: { field: 'username' } });
    const en = await t.call('POST', REGISTER, {
      body: { username: 'abcd', password: '123' },
      headers: { cookie: 'locale=en' },
    });
    expect(en.body).toMatchObject({ Message: 'Password must be at least 6 characters', Data: { field: 'password' } });
  });

  it('refuses registration while it is closed', async () => {
    const admin = await t.login(ADMIN.username, ADMIN.password);
    await t.post('/api/settings.v2', { data: [{ key: 'registerClose', value: true, tag: 'default' }] }, admin);
    const res = await t.post(REGISTER, { username: 'late_comer', password: 'secret1' });
    expect(res.Code).toBe(Code.UNAUTHORIZED);
    await t.post('/api/settings.v2', { data: [{ key: 'registerClose', value: false, tag: 'default' }] }, admin);
    expect((await t.post(REGISTER, { username: 'late_comer', password: 'secret1' })).Code).toBe(0);
  });
});

describe('login and logout', () => {
  it('logs in, and a wrong username or password give the same -7062', async () => {
    const u = await buildUser(t);
    const good = await t.post<SessionData>(LOGIN, { username: u.username.toUpperCase(), password: u.password });
    expect(good.Code).toBe(0);
    expect(good.Data.userId).toBe(u.id);
    const wrongPassword = await t.post(LOGIN, { username: u.username, password: 'not-the-password' });
    const wrongUser = await t.post(LOGIN, { username: 'no_such_user', password: u.password });
    expect(wrongPassword.Code).toBe(Code.LOGIN_FAILED);
    expect(wrongUser.Code).toBe(Code.LOGIN_FAILED);
    expect(wrongPassword.Message).toBe(wrongUser.Message);
  });

  it('revokes the token on logout', async () => {
    const u = await buildUser(t);
    expect((await t.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
    const out = await t.call('POST', '/api/v3/users/logout', { token: u.token });
    expect(out.body.Code).toBe(0);
    expect(String(out.headers['set-cookie'])).toMatch(/access_token=;/);
    expect((await t.get('/api/v3/unreadnotification', u.token)).Code).toBe(Code.JUMP_TO_LOGIN);
    const forum = await t.get<Forum>('/api/v3/forum', u.token);
    expect(forum.Data.user).toBeNull();
    // A second logout with the dead token is a guest's call.
    expect((await t.post('/api/v3/users/logout', {}, u.token)).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('treats an expired token as no token', async () => {
    const u = await buildUser(t);
    await t.server.database.db
      .updateTable('accessTokens')
      .set({ expiresAt: '2000-01-01T00:00:00.000Z' })
      .where('userId', '=', u.id)
      .execute();
    expect((await t.get('/api/v3/unreadnotification', u.token)).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('stops a banned user with -4009, at login and with a token already held', async () => {
    const u = await buildUser(t);
    await t.server.database.db.updateTable('users').set({ status: 1 }).where('id', '=', u.id).execute();
    expect((await t.post(LOGIN, { username: u.username, password: u.password })).Code).toBe(Code.USER_BANNED);
    expect((await t.get('/api/v3/unreadnotification', u.token)).Code).toBe(Code.USER_BANNED);
    // ... but a wrong password still says only that.
    expect((await t.post(LOGIN, { username: u.username, password: 'wrong-one' })).Code).toBe(Code.LOGIN_FAILED);
    // Logging out stays possible.
    expect((await t.post('/api/v3/users/logout', {}, u.token)).Code).toBe(0);
  });
});

describe('rate limits', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ env: { RATE_LIMIT_REGISTER: '3', RATE_LIMIT_LOGIN_FAILURES: '3' } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('limits registrations per address and says how long to wait', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await limited.post(REGISTER, { username: `rl_user_${i}`, password: 'secret1' })).Code).toBe(0);
    }
    const res = await limited.call<{ retryAfter: number }>('POST', REGISTER, {
      body: { username: 'rl_user_x', password: 'secret1' },
      headers: { cookie: 'locale=en' },
    });
    expect(res.status).toBe(429);
    expect(res.body.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(res.body.Message).toMatch(/wait \d+ seconds/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await limited.post(LOGIN, { username: 'rl_user_x', password: 'secret1' })).Code).toBe(Code.LOGIN_FAILED);
  });

  it('limits failed logins but not successful ones', async () => {
    const from = (remoteAddress: string, password: string) =>
      limited.call('POST', LOGIN, { body: { username: ADMIN.username, password }, remoteAddress });
    expect((await from('127.0.0.2', ADMIN.password)).body.Code).toBe(0);
    for (let i = 0; i < 3; i += 1) {
      expect((await from('127.0.0.2', 'wrong')).body.Code).toBe(Code.LOGIN_FAILED);
    }
    // The right password no longer helps from that address...
    const blocked = await from('127.0.0.2', ADMIN.password);
    expect(blocked.body.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(blocked.status).toBe(429);
    // ... while another address is not affected.
    expect((await from('127.0.0.3', ADMIN.password)).body.Code).toBe(0);
  });
});
