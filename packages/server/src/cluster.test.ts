import { Code, type Page, type ThreadItem } from '@luntan/shared';
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILT_ADMIN,
  clientOnWorker,
  clientsOnEveryWorker,
  isAlive,
  PinnedClient,
  startBuiltServer,
  type BuiltServer,
} from './test/built-server.js';

/**
 * The built server with WORKERS=2 (node:cluster: a primary and two workers on one port), over SQLite or, with
 * DATABASE_URL, PostgreSQL. Each client keeps one connection, so it knows which worker answers it
 * (LUNTAN_PROCESS_HEADER=1), and what one worker does is checked through the other. On SQLite the workers hear each
 * other through the cluster's IPC channel, on PostgreSQL through LISTEN/NOTIFY, with REDIS_TEST_URL also through Redis.
 * Needs `npm run build`.
 */
const LOGIN = '/api/v3/users/username.login';
const LIST = '/api/v3/thread.list?perPage=50';
const LOGIN_FAILURES = 4;
/** How long a live event may take before the test fails: far below the 60 s poll it stands in for. */
const LIVE_WAIT_MS = 15_000;
/** How long another worker's write may take to reach this one's guest cache: far below the cache's minute. */
const PROPAGATION_WAIT_MS = 30_000;

function clusterSuite(label: string, env: () => Record<string, string>) {
  describe(label, () => {
    let server: BuiltServer;
    let a: PinnedClient;
    let b: PinnedClient;
    const workerPids: number[] = [];

    beforeAll(async () => {
      server = await startBuiltServer({
        WORKERS: '2',
        LUNTAN_PROCESS_HEADER: '1',
        // Long enough that only a signal from the other worker can explain a fresh answer.
        GUEST_CACHE_MS: '60000',
        RATE_LIMIT_LOGIN_FAILURES: String(LOGIN_FAILURES),
        RATE_LIMIT_REGISTER: '1000',
        TRUST_PROXY: '1',
        ...env(),
      });
      [a, b] = (await clientsOnEveryWorker(server.base, 2)) as [PinnedClient, PinnedClient];
      workerPids.push(a.pid, b.pid);
    }, 120_000);

    afterAll(async () => {
      a?.close();
      b?.close();
      const code = await server?.stop({ alsoKill: workerPids });
      expect(code).toBe(0);
      // Stopping the primary stopped its workers too.
      expect(workerPids.filter(isAlive)).toEqual([]);
    }, 60_000);

    const member = async (client: PinnedClient) => {
      const username = `cl${randomBytes(4).toString('hex')}`;
      const res = await client.call<{ userId: number; accessToken: string }>(
        'POST',
        '/api/v3/users/username.register',
        {
          body: { username, password: 'password-123' },
          headers: { 'x-forwarded-for': '10.1.0.1' },
        },
      );
      expect(res.body.Code).toBe(0);
      return { id: res.body.Data.userId, token: res.body.Data.accessToken };
    };

    it('is two worker processes under a primary that serves nothing, printing the banner once', () => {
      expect([a.worker, b.worker]).toEqual(['1', '2']);
      expect(new Set([a.pid, b.pid, server.child.pid]).size).toBe(3);
      expect(server.output().match(/Luntan is running/g)).toHaveLength(1);
      expect(server.output()).toContain('Processes: 2 workers');
    });

    it('clears the guest cache of one worker when the other takes a write', async () => {
      const author = await member(b);
      const titles = async () => {
        const res = await a.call<Page<ThreadItem>>('GET', LIST);
        expect(a.worker).toBe('1');
        return { cache: res.headers['x-guest-cache'], titles: res.body.Data.pageData.map((t) => t.title) };
      };
      // The registration just made through worker 2 clears worker 1's cache too, through the relay, a moment later:
      // read until worker 1 serves its own kept answer.
      const settled = Date.now() + PROPAGATION_WAIT_MS;
      let first = await titles();
      while (first.cache !== 'hit' && Date.now() < settled) {
        await sleep(50);
        first = await titles();
      }
      expect(first.cache).toBe('hit');

      const title = `from the other worker ${randomBytes(3).toString('hex')}`;
      const created = await b.call('POST', '/api/v3/thread.create', {
        body: { categoryId: 1, title, content: { text: 'written through worker 2' } },
        token: author.token,
      });
      expect(created.body.Code).toBe(0);
      expect(b.worker).toBe('2');

      // Worker 2 told worker 1 before it answered; the relay (or NOTIFY) may still be in flight for a moment, but
      // nowhere near the cache's minute.
      const deadline = Date.now() + PROPAGATION_WAIT_MS;
      let seen = await titles();
      while (!seen.titles.includes(title) && Date.now() < deadline) {
        await sleep(50);
        seen = await titles();
      }
      expect(seen.titles).toContain(title);
      expect(seen.cache).toBe('miss');
    }, 60_000);

    it('counts failed sign-ins of one address across both workers', async () => {
      const from = { 'x-forwarded-for': '10.2.0.7' };
      const attempt = (client: PinnedClient, i: number) =>
        client.call('POST', LOGIN, { body: { username: `nobody${i}`, password: 'wrong-guess' }, headers: from });
      // Alternating workers: each sees only half of the attempts, the limit still comes at the same count.
      for (let i = 0; i < LOGIN_FAILURES; i += 1) {
        expect((await attempt(i % 2 === 0 ? a : b, i)).body.Code).toBe(Code.LOGIN_FAILED);
      }
      const refused = await attempt(a, LOGIN_FAILURES);
      expect(refused.status).toBe(429);
      expect(refused.body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect((await attempt(b, LOGIN_FAILURES + 1)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
      // Even the right password, on either worker, from that address; another address signs in.
      const admin = { username: BUILT_ADMIN.username, password: BUILT_ADMIN.password };
      expect((await b.call('POST', LOGIN, { body: admin, headers: from })).body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect((await b.call('POST', LOGIN, { body: admin, headers: { 'x-forwarded-for': '10.2.0.8' } })).body.Code).toBe(
        0,
      );
    });

    it("delivers a live event on worker 1's stream for a message sent through worker 2", async () => {
      const alice = await member(b);
      const bob = await member(a);
      // Bob's page: its own connection, made on worker 1.
      const streamClient = await clientOnWorker(server.base, '1');
      let stream: http.IncomingMessage | undefined;
      try {
        stream = await streamClient.open('GET', '/api/v3/live', { authorization: `Bearer ${bob.token}` });
        expect(stream.statusCode).toBe(200);
        expect(stream.headers['x-luntan-worker']).toBe('1');
        let received = '';
        const connected = new Promise<void>((resolve) =>
          stream!.on('data', (chunk: Buffer) => {
            received += chunk.toString();
            if (received.includes(': connected')) resolve();
          }),
        );
        await connected;
        const event = new Promise<{ messageId: number } | null>((resolve) => {
          const timer = setTimeout(() => resolve(null), LIVE_WAIT_MS);
          const look = () => {
            const match = /event: dialogMessage\ndata: (.+)\n\n/.exec(received);
            if (match) {
              clearTimeout(timer);
              resolve(JSON.parse(match[1]!) as { messageId: number });
            }
          };
          stream!.on('data', look);
          look();
        });

        const sent = await b.call<{ id: number }>('POST', '/api/v3/dialog.create', {
          body: { recipientUserId: bob.id, messageText: '从另一个工作进程来' },
          token: alice.token,
        });
        expect(sent.body.Code).toBe(0);
        expect(b.worker).toBe('2');
        expect(await event).toMatchObject({ messageId: sent.body.Data.id });
      } finally {
        stream?.destroy();
        streamClient.close();
      }
    }, 60_000);

    // Last: it ends worker 2.
    it('starts a worker again when one dies, without stopping the other', async () => {
      process.kill(b.pid, 'SIGKILL');
      b.close();
      // A connection the primary hands to a worker at the moment it dies is lost (node:cluster): ask only once the
      // primary has seen the death.
      const deadline = Date.now() + 40_000;
      while (!/Worker 2 \(pid \d+\) exited unexpectedly \(signal SIGKILL\)/.test(server.output())) {
        expect(Date.now(), server.output()).toBeLessThan(deadline);
        await sleep(50);
      }
      let replacement: PinnedClient | undefined;
      while (!replacement && Date.now() < deadline) {
        const client = new PinnedClient(server.base);
        await client.call('GET', '/api/siteinfo.v2', { timeoutMs: 10_000 });
        if (client.worker !== '1') {
          workerPids.push(client.pid);
          replacement = client;
        } else {
          client.close();
          await sleep(200);
        }
      }
      try {
        expect(replacement?.worker, server.output()).toBe('3');
        expect((await a.call('GET', '/api/siteinfo.v2')).body.Code).toBe(0);
        expect(a.worker).toBe('1');
      } finally {
        replacement?.close();
      }
    }, 90_000);
  });
}

clusterSuite(
  `a cluster of two processes (${process.env.DATABASE_URL ? 'PostgreSQL LISTEN/NOTIFY' : 'SQLite, cluster IPC'})`,
  () => ({}),
);
describe.runIf(process.env.REDIS_TEST_URL)('with Redis', () => {
  clusterSuite('a cluster of two processes (Redis)', () => ({ REDIS_URL: process.env.REDIS_TEST_URL! }));
});

describe('WORKERS=1', () => {
  let server: BuiltServer;
  beforeAll(async () => {
    server = await startBuiltServer({ WORKERS: '1', LUNTAN_PROCESS_HEADER: '1' });
  }, 120_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  }, 60_000);

  it('starts no cluster: the process started serves itself', async () => {
    const client = new PinnedClient(server.base);
    try {
      await client.call('GET', '/api/siteinfo.v2');
      expect(client.worker).toBe('0');
      expect(client.pid).toBe(server.child.pid);
      expect(server.output()).not.toContain('Processes:');
    } finally {
      client.close();
    }
  });
});
