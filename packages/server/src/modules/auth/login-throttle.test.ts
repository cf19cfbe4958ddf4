import { Code } from '@luntan/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_FREE_FAILURES, LOGIN_MAX_WAIT_SECONDS, loginWaitSeconds } from '../../core/rate-limit.js';
import { buildUser, newStorage, startTestServer, type TestServer } from '../../test/harness.js';
import { setTimeout as sleep } from 'node:timers/promises';

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
