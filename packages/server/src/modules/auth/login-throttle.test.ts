import { Code } from '@luntan/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_FREE_FAILURES, LOGIN_MAX_WAIT_SECONDS, loginWaitSeconds } from '../../core/rate-limit.js';
import { buildUser, newStorage, startTestServer, type TestServer } from '../../test/harness.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomMobile, SMS_TEST_ENV, SmsLog } from '../../test/sms-log.js';

const LOGIN = '/api/v3/users/username.login';
const REGISTER = '/api/v3/users/username.register';

describe('the wait between attempts on one account', () => {
  it('is none for the first failures, then doubles from 1 s up to 5 minutes', () => {
    expect(loginWaitSeconds(LOGIN_FREE_FAILURES)).toBe(0);
    expect([6, 7, 8, 9].map(loginWaitSeconds)).toEqual([1, 2, 4, 8]);
    expect(loginWaitSeconds(100)).toBe(LOGIN_MAX_WAIT_SECONDS);
  });
});

/**
 * Two app processes over one database (or one Redis, with REDIS_TEST_URL): what one counts, the other sees.
 * Addresses differ on every attempt, so only the per-account count can stop the guesser.
 */
function throttleSuite(label: string, env: () => Record<string, string>, { redis = false } = {}) {
  describe(label, () => {
    let a: TestServer;
    let b: TestServer;
    // The counters in the database measure their windows with Date.now(): faked (Date only), so only the test moves
    // the time and a slow machine cannot end a wait under its feet. Redis keeps its own clock: there the test waits.
    beforeEach(() => {
      if (!redis) vi.useFakeTimers({ toFake: ['Date'] });
    });
    afterEach(() => vi.useRealTimers());
    const pass = async (ms: number) => (redis ? sleep(ms) : vi.setSystemTime(Date.now() + ms));

    beforeAll(async () => {
      const storage = newStorage();
      const shared = { ...env(), RATE_LIMIT_REGISTER: '3', RATE_LIMIT_LOGIN_FAILURES: '1000' };
      a = await startTestServer({ storage, env: shared });
      b = await startTestServer({ storage, env: shared });
    });
    afterAll(async () => {
      await b.close({ keep: true });
      await a.close();
    });

    let address = 10;
    const attempt = (server: TestServer, username: string, password: string) => {
      address += 1;
      return server.call<{ retryAfter?: number }>('POST', LOGIN, {
        body: { username, password },
        remoteAddress: `10.0.${Math.floor(address / 250)}.${address % 250}`,
      });
    };

    it('makes one account wait longer after each failure beyond the fifth, across processes and addresses', async () => {
      const victim = await buildUser(a);
      for (let i = 0; i < LOGIN_FREE_FAILURES; i += 1) {
        const server = i % 2 === 0 ? a : b;
        expect((await attempt(server, victim.username, 'wrong-guess')).body.Code).toBe(Code.LOGIN_FAILED);
      }
      // The sixth failure (counted in the other process) starts a wait of 1 s...
      expect((await attempt(b, victim.username.toUpperCase(), 'wrong-guess')).body.Code).toBe(Code.LOGIN_FAILED);
      const waiting = await attempt(a, victim.username, victim.password);
      expect(waiting.status).toBe(429);
      expect(waiting.body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect(waiting.body.Data.retryAfter).toBe(1);
      expect(Number(waiting.headers['retry-after'])).toBe(1);
      // ... after which one more failure makes the next wait 2 s: growing, never a lock.
      await pass(900);
      if (!redis) expect((await attempt(b, victim.username, victim.password)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
      await pass(200);
      expect((await attempt(b, victim.username, 'wrong-again')).body.Code).toBe(Code.LOGIN_FAILED);
      const longer = await attempt(a, victim.username, victim.password);
      expect(longer.body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect(longer.body.Data.retryAfter).toBe(2);
      // The owner gets in once the wait is over, and that clears the count.
      await pass(1900);
      if (!redis) expect((await attempt(a, victim.username, victim.password)).body.Data.retryAfter).toBe(1);
      await pass(200);
      expect((await attempt(b, victim.username, victim.password)).body.Code).toBe(0);
      expect((await attempt(a, victim.username, 'typo-once')).body.Code).toBe(Code.LOGIN_FAILED);
      expect((await attempt(a, victim.username, victim.password)).body.Code).toBe(0);
    });

    it('leaves other accounts alone while one is waiting', async () => {
      const [victim, bystander] = [await buildUser(a), await buildUser(a)];
      for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) await attempt(a, victim.username, 'wrong-guess');
      expect((await attempt(b, victim.username, victim.password)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect((await attempt(b, bystander.username, bystander.password)).body.Code).toBe(0);
    });

    it('counts sign-ups per address across processes', async () => {
      // A fresh address each run: Redis keeps its counts between runs.
      const from = { remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
      const register = (server: TestServer, i: number) =>
        server.call('POST', REGISTER, { body: { username: `shared_rl_${i}`, password: 'secret1' }, ...from });
      expect((await register(a, 1)).body.Code).toBe(0);
      expect((await register(b, 2)).body.Code).toBe(0);
      expect((await register(a, 3)).body.Code).toBe(0);
      expect((await register(b, 4)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
    });
  });
}

throttleSuite('failed sign-ins, counted in the database', () => ({}));

const redisUrl = process.env.REDIS_TEST_URL;
describe.runIf(redisUrl)('with Redis', () => {
  throttleSuite(
    'failed sign-ins, counted in Redis',
    () => ({
      REDIS_URL: redisUrl!,
    }),
    { redis: true },
  );
});

/**
 * The wait belongs to the account, whichever name it is signed in with: its username (any case) or its bound
 * number. A name that matches no account is counted under the name, so probing unknown names waits the same way.
 */
describe('the wait of an account signed in to by username or by number', () => {
  let t: TestServer;
  let log: SmsLog;
  beforeAll(async () => {
    log = new SmsLog();
    t = await startTestServer({ env: SMS_TEST_ENV, logStream: log });
  });
  afterAll(async () => t.close());
  // Date only: the wait cannot end under a slow machine's feet.
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  let address = 10;
  const attempt = (username: string, password: string) => {
    address += 1;
    return t.call<{ retryAfter?: number }>('POST', LOGIN, {
      body: { username, password },
      remoteAddress: `10.1.${Math.floor(address / 250)}.${address % 250}`,
    });
  };
  /** A registered member who bound a number. */
  async function memberWithNumber() {
    const member = await buildUser(t);
    const mobile = randomMobile('131');
    expect((await t.post('/api/v3/users/sms.send', { mobile, type: 'bind' }, member.token)).Code).toBe(0);
    expect((await t.post('/api/v3/users/sms.bind', { mobile, code: log.codeFor(mobile) }, member.token)).Code).toBe(0);
    return { ...member, mobile };
  }
  /** Fails until the account must wait: LOGIN_FREE_FAILURES + 1 wrong passwords, every one -7062. */
  async function failUntilWaiting(name: string) {
    for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) {
      expect((await attempt(name, `wrong-${i}`)).body.Code).toBe(Code.LOGIN_FAILED);
    }
  }

  it('reached by username, holds for the number', async () => {
    const m = await memberWithNumber();
    expect((await attempt(m.mobile, m.password)).body.Code).toBe(0);
    await failUntilWaiting(m.username);
    for (const name of [m.mobile, ` ${m.mobile} `, m.username.toUpperCase()]) {
      const waiting = await attempt(name, 'wrong-again');
      expect(waiting.body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect(waiting.body.Data.retryAfter).toBe(1);
    }
    expect((await attempt(m.mobile, m.password)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
    // Once the wait is over the owner gets in by number, and that clears the count for the username too.
    vi.setSystemTime(Date.now() + 1100);
    expect((await attempt(m.mobile, m.password)).body.Code).toBe(0);
    expect((await attempt(m.username, 'typo-once')).body.Code).toBe(Code.LOGIN_FAILED);
    expect((await attempt(m.username, m.password)).body.Code).toBe(0);
  });

  it('reached by number, holds for the username', async () => {
    const m = await memberWithNumber();
    await failUntilWaiting(m.mobile);
    expect((await attempt(m.username, m.password)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect((await attempt(m.username.toUpperCase(), 'wrong-again')).body.Code).toBe(Code.TOO_MANY_REQUESTS);
  });

  it('keeps counting names that match no account, and leaves other accounts alone', async () => {
    const [m, bystander] = [await memberWithNumber(), await buildUser(t)];
    const nobody = `nobody_${address}`;
    await failUntilWaiting(nobody);
    expect((await attempt(nobody.toUpperCase(), 'wrong-again')).body.Code).toBe(Code.TOO_MANY_REQUESTS);
    await failUntilWaiting(randomMobile('134'));
    expect((await attempt(m.mobile, m.password)).body.Code).toBe(0);
    expect((await attempt(bystander.username, bystander.password)).body.Code).toBe(0);
  });

  it('counts a guess at an older username that is another member’s number against both accounts', async () => {
    const phone = await memberWithNumber();
    const older = await buildUser(t);
    // Usernames like numbers are refused now; one made before that rule is written straight into the table.
    await t.app.ctx.db
      .updateTable('users')
      .set({ username: phone.mobile, usernameNormalized: phone.mobile })
      .where('id', '=', older.id)
      .execute();
    await failUntilWaiting(phone.mobile);
    expect((await attempt(phone.username, phone.password)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
    // The older username's owner is waiting too: each guess was tried on their password as well.
    vi.setSystemTime(Date.now() + 1100);
    expect((await attempt(phone.mobile, older.password)).body.Code).toBe(0);
    // ... and their success clears only their own count: one more failure makes the number's member wait again.
    expect((await attempt(phone.username, 'wrong-again')).body.Code).toBe(Code.LOGIN_FAILED);
    expect((await attempt(phone.username, phone.password)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
  });
});
