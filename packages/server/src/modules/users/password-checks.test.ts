import { Code } from '@luntan/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_FREE_FAILURES } from '../../core/rate-limit.js';
import { useTestServer } from '../../test/fixture.js';

/*
 * A signed-in member's login password is checked outside username.login too: to change it (update.user) and to set
 * the pay password. Those checks count as sign-in attempts of the account, in the login's own throttle, so that a
 * stolen session is no way to guess the password without limit.
 */

const t = useTestServer();
// The counters measure their windows with Date.now(): faked, so only the test moves the time (login-throttle.test.ts).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());
const pass = (ms: number) => vi.setSystemTime(Date.now() + ms);

const changePassword = (token: string, password: string, newPassword: string) =>
  t.call<{ retryAfter?: number }>('POST', '/api/v3/users/update.user', { token, body: { password, newPassword } });
const setPayPassword = (token: string, password: string) =>
  t.call<{ retryAfter?: number }>('POST', '/api/v3/users/pay-password/reset', {
    token,
    body: { password, payPassword: '246810' },
  });

describe('the login password checked for a signed-in member', () => {
  it('changing it (update.user): the attempt after the sixth wrong one waits, as username.login does', async () => {
    const member = await t.buildMember();
    for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) {
      expect((await changePassword(member.token, `wrong-${i}`, 'new-pass-1')).body.Code).toBe(Code.LOGIN_FAILED);
    }
    // Even the right password waits now, with the login's answer; the account's sign-in waits too (one count).
    const waiting = await changePassword(member.token, member.password, 'new-pass-1');
    expect(waiting.status).toBe(429);
    expect(waiting.body.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(waiting.body.Message).toBe('尝试次数过多，请 1 秒后再试');
    expect(waiting.body.Data.retryAfter).toBe(1);
    const login = await t.post('/api/v3/users/username.login', {
      username: member.username,
      password: member.password,
    });
    expect(login.Code).toBe(Code.TOO_MANY_REQUESTS);

    // Once the wait is over the right password is taken, and that clears the count.
    pass(1100);
    expect((await changePassword(member.token, member.password, 'new-pass-1')).body.Code).toBe(0);
    for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) {
      expect((await changePassword(member.token, `again-${i}`, 'new-pass-2')).body.Code).toBe(Code.LOGIN_FAILED);
    }
    expect((await changePassword(member.token, 'new-pass-1', 'new-pass-2')).body.Code).toBe(Code.TOO_MANY_REQUESTS);
  });

  it('confirming the pay password (pay-password/reset): the attempt after the sixth wrong one waits', async () => {
    const member = await t.buildMember();
    for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) {
      const wrong = await setPayPassword(member.token, `wrong-${i}`);
      expect(wrong.body.Code).toBe(Code.INVALID_PARAMETER);
      expect(wrong.body.Data).toMatchObject({ field: 'password' });
    }
    const waiting = await setPayPassword(member.token, member.password);
    expect(waiting.status).toBe(429);
    expect(waiting.body.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(waiting.body.Data.retryAfter).toBe(1);

    pass(1100);
    expect((await setPayPassword(member.token, member.password)).body.Code).toBe(0);
    // The success cleared the count: the next wrong ones are free again, up to the sixth.
    for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) {
      expect((await setPayPassword(member.token, `again-${i}`)).body.Code).toBe(Code.INVALID_PARAMETER);
    }
    expect((await setPayPassword(member.token, member.password)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
  });
});
