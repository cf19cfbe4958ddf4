import { Code, type SessionData, type UserProfile } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { randomMobile, SMS_TEST_ENV, SmsLog } from '../../test/sms-log.js';

/** Members who joined by SMS: signing in with the number and a password, and choosing a username once. */
let t: TestServer;
let log: SmsLog;
let admin: string;

beforeAll(async () => {
  log = new SmsLog();
  t = await startTestServer({ env: SMS_TEST_ENV, logStream: log });
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

const login = (username: string, password: string) =>
  t.post<SessionData>('/api/v3/users/username.login', { username, password });
const update = (token: string, body: unknown) => t.post<UserProfile>('/api/v3/users/update.user', body, token);
const profile = async (token: string, userId: number) =>
  (await t.get<UserProfile>(`/api/v3/user?userId=${userId}`, token)).Data;

/** A member made by a first SMS sign-in: their number, token, id and the username the site gave them. */
async function phoneMember(start = '136') {
  const mobile = randomMobile(start);
  expect((await t.post('/api/v3/users/sms.send', { mobile, type: 'login' })).Code).toBe(0);
  const res = await t.post<SessionData>('/api/v3/users/sms.login', { mobile, code: log.codeFor(mobile) });
  expect(res.Code).toBe(0);
  const { accessToken: token, userId } = res.Data;
  return { mobile, token, userId, username: (await profile(token, userId)).username };
}

describe('signing in with the number and a password', () => {
  it('a phone member sets a first password without the random one, then signs in with number or username', async () => {
    const m = await phoneMember();
    expect(await profile(m.token, m.userId)).toMatchObject({ hasPassword: false, usernameChangeable: true });
    // Nobody knows the generated password: the number does not sign in with a guess.
    expect((await login(m.mobile, 'password-123')).Code).toBe(Code.LOGIN_FAILED);

    expect((await update(m.token, { newPassword: 'phone-pass-1' })).Code).toBe(0);
    expect((await profile(m.token, m.userId)).hasPassword).toBe(true);
    const byNumber = await login(m.mobile, 'phone-pass-1');
    expect(byNumber).toMatchObject({ Code: 0, Data: { userId: m.userId } });
    expect((await login(` ${m.mobile} `, 'phone-pass-1')).Data.userId).toBe(m.userId);
    expect((await login(m.username, 'phone-pass-1')).Data.userId).toBe(m.userId);
    expect((await login(m.mobile, 'phone-pass-2')).Code).toBe(Code.LOGIN_FAILED);
  });

  it('after an SMS password reset, and for a member who bound a number to a registered account', async () => {
    const m = await phoneMember();
    await t.post('/api/v3/users/sms.send', { mobile: m.mobile, type: 'reset_pwd' });
    const reset = await t.post('/api/v3/users/sms.reset.pwd', {
      mobile: m.mobile,
      code: log.codeFor(m.mobile),
      password: 'reset-pass-1',
    });
    expect(reset.Code).toBe(0);
    expect((await login(m.mobile, 'reset-pass-1')).Data.userId).toBe(m.userId);

    const u = await buildUser(t);
    const mobile = randomMobile('135');
    await t.post('/api/v3/users/sms.send', { mobile, type: 'bind' }, u.token);
    expect((await t.post('/api/v3/users/sms.bind', { mobile, code: log.codeFor(mobile) }, u.token)).Code).toBe(0);
    expect((await login(mobile, u.password)).Data.userId).toBe(u.id);
  });

  it('a number that is nobody’s answers like a wrong password (-7062)', async () => {
    expect((await login(randomMobile('134'), 'password-123')).Code).toBe(Code.LOGIN_FAILED);
  });

  it('an older username that is another member’s number: each member signs in with their own password', async () => {
    const phone = await phoneMember('133');
    expect((await update(phone.token, { newPassword: 'number-owner-1' })).Code).toBe(0);
    // Usernames like numbers are refused now; one made before that rule is written straight into the table.
    const older = await buildUser(t, { password: 'name-owner-1' });
    await t.app.ctx.db
      .updateTable('users')
      .set({ username: phone.mobile, usernameNormalized: phone.mobile })
      .where('id', '=', older.id)
      .execute();

    expect((await login(phone.mobile, 'name-owner-1')).Data.userId).toBe(older.id);
    expect((await login(phone.mobile, 'number-owner-1')).Data.userId).toBe(phone.userId);
    expect((await login(phone.mobile, 'neither-one')).Code).toBe(Code.LOGIN_FAILED);
  });

  it('new usernames cannot be mobile numbers: registration and username.check say so (-4001)', async () => {
    const mobile = randomMobile('137');
    const registered = await t.post('/api/v3/users/username.register', { username: mobile, password: 'password-1' });
    expect(registered).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'username' } });
    expect(registered.Message).toBe('用户名不能是手机号');
    expect((await t.post('/api/v3/users/username.check', { username: mobile })).Code).toBe(Code.INVALID_PARAMETER);
    // Digits that are no mainland number remain a name.
    expect((await t.post('/api/v3/users/username.check', { username: '12345678901' })).Code).toBe(0);
  });
});

describe('choosing a username once (update.user username)', () => {
  it('replaces the generated username once; the new one signs in, the old one no longer does', async () => {
    const m = await phoneMember();
    expect(m.username).toMatch(/^u_[a-z0-9]+$/);
    await update(m.token, { newPassword: 'phone-pass-1' });
    const chosen = `我的名${m.userId}`;
    const res = await update(m.token, { username: ` ${chosen} ` });
    expect(res).toMatchObject({ Code: 0, Data: { username: chosen, usernameChangeable: false } });
    expect((await login(chosen, 'phone-pass-1')).Data.userId).toBe(m.userId);
    expect((await login(m.username, 'phone-pass-1')).Code).toBe(Code.LOGIN_FAILED);
    const forum = await t.get<{ user: { username: string } }>('/api/v3/forum', m.token);
    expect(forum.Data.user.username).toBe(chosen);

    const again = await update(m.token, { username: `${chosen}2` });
    expect(again).toMatchObject({ Code: Code.UNAUTHORIZED, Data: { field: 'username' } });
    expect((await profile(m.token, m.userId)).username).toBe(chosen);
  });

  it('a member who chose their username at registration cannot change it (-4002)', async () => {
    const u = await buildUser(t);
    expect((await profile(u.token, u.id)).usernameChangeable).toBe(false);
    expect((await update(u.token, { username: `x${u.username}`.slice(0, 15) })).Code).toBe(Code.UNAUTHORIZED);
  });

  it('applies the registration’s rules; a refusal changes nothing and leaves the one change', async () => {
    const m = await phoneMember();
    const other = await buildUser(t);
    const words = { data: { type: 'stop-words', words: ['禁用名={BANNED}', '替换名=|好名|||'], overwrite: false } };
    expect((await t.post('/api/stop-words/batch.v2', words, admin)).Code).toBe(0);

    const refusals: Array<[unknown, number]> = [
      [other.username.toUpperCase(), Code.USERNAME_EXISTS],
      [randomMobile('138'), Code.INVALID_PARAMETER],
      ['a', Code.INVALID_PARAMETER],
      ['有 空格', Code.INVALID_PARAMETER],
      ['x'.repeat(16), Code.INVALID_PARAMETER],
      [42, Code.INVALID_PARAMETER],
      ['我是禁用名', Code.CONTENT_BANNED],
      ['我是替换名', Code.CONTENT_BANNED],
    ];
    for (const [username, code] of refusals) {
      const res = await update(m.token, { username, nickname: '不应改变' });
      expect(res.Code, String(username)).toBe(code);
      // -7042 says what it is without a field, as at registration.
      if (code !== Code.USERNAME_EXISTS) expect(res.Data, String(username)).toMatchObject({ field: 'username' });
    }
    expect(await profile(m.token, m.userId)).toMatchObject({
      username: m.username,
      nickname: `${m.mobile.slice(0, 3)}****${m.mobile.slice(7)}`,
      usernameChangeable: true,
    });
    // A case change of one's own generated name is a choice too.
    expect((await update(m.token, { username: m.username.toUpperCase() })).Data.username).toBe(
      m.username.toUpperCase(),
    );
  });

  it('two changes at once: one wins, the other is refused', async () => {
    const m = await phoneMember();
    const [a, b] = await Promise.all([
      update(m.token, { username: `甲${m.userId}` }),
      update(m.token, { username: `乙${m.userId}` }),
    ]);
    expect([a.Code, b.Code].sort()).toEqual([Code.UNAUTHORIZED, 0].sort());
  });
});
