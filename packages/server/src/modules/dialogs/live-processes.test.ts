import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBuiltStorage, startBuiltServer, type BuiltServer, type BuiltStorage } from '../../test/built-server.js';

/**
 * Two real server processes (the built dist/main.js, as `npm start` runs it) on one database: a page whose stream
 * is held by process B hears a private message sent through process A, live (long before the pages' 60 s poll; how
 * fast is the bench's to measure, not a test's: a busy machine delays it). Fan-out goes through
 * PostgreSQL LISTEN/NOTIFY, or Redis pub/sub with REDIS_URL. Needs the build (`npm test` builds first).
 */
/** How long a live event may take before the test fails: far below the 60 s poll it stands in for. */
const LIVE_WAIT_MS = 15_000;

async function api<T>(base: string, url: string, body?: unknown, token?: string): Promise<{ Code: number; Data: T }> {
  const res = await fetch(base + url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as { Code: number; Data: T };
}

async function member(base: string, name: string): Promise<{ id: number; token: string }> {
  const username = `${name}${randomBytes(3).toString('hex')}`;
  const res = await api<{ userId: number; accessToken: string }>(base, '/api/v3/users/username.register', {
    username,
    password: 'password-123',
  });
  expect(res.Code).toBe(0);
  return { id: res.Data.userId, token: res.Data.accessToken };
}

/** Resolves with the first `dialogMessage` event's data on the stream, or rejects after `ms`. */
async function firstMessageEvent(base: string, token: string, ms: number) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v3/live`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const timer = setTimeout(() => controller.abort(), ms);
  return {
    event: (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return null;
          buffer += decoder.decode(value, { stream: true });
          const match = /event: dialogMessage\ndata: (.+)\n\n/.exec(buffer);
          if (match) return JSON.parse(match[1]!) as { messageId: number };
        }
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
        controller.abort();
      }
    })(),
  };
}

function twoProcesses(label: string, env: () => Record<string, string>) {
  describe(label, () => {
    let a: BuiltServer | undefined;
    let b: BuiltServer | undefined;
    let storage: BuiltStorage | undefined;
    beforeAll(async () => {
      storage = newBuiltStorage();
      const shared = { ...env(), RATE_LIMIT_REGISTER: '1000' };
      // A migrates the database first; B starts on the migrated one.
      a = await startBuiltServer(shared, { storage });
      b = await startBuiltServer(shared, { storage });
    }, 200_000);
    afterAll(async () => {
      await Promise.all([a?.stop({ graceMs: 5000 }), b?.stop({ graceMs: 5000 })]);
      await storage?.drop();
    });

    it('a page listening on process B hears a message sent through process A', async () => {
      const alice = await member(a!.base, 'pa');
      const bob = await member(a!.base, 'pb');
      const listening = await firstMessageEvent(b!.base, bob.token, LIVE_WAIT_MS);
      const sent = await api<{ id: number }>(
        a!.base,
        '/api/v3/dialog.create',
        { recipientUserId: bob.id, messageText: '从另一个进程来' },
        alice.token,
      );
      expect(sent.Code).toBe(0);
      expect(await listening.event).toMatchObject({ messageId: sent.Data.id });
    });
  });
}

describe.runIf(process.env.DATABASE_URL)('two server processes on one PostgreSQL database', () => {
  twoProcesses('through LISTEN/NOTIFY', () => ({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: '' }));
});
describe.runIf(process.env.DATABASE_URL && process.env.REDIS_TEST_URL)('two server processes with Redis', () => {
  twoProcesses('through Redis pub/sub', () => ({
    DATABASE_URL: process.env.DATABASE_URL!,
    REDIS_URL: process.env.REDIS_TEST_URL!,
  }));
});
