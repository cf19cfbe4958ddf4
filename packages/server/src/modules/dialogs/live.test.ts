import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, newStorage, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * How long a live event may take before a test fails: far below the pages' 60 s poll it replaces. How fast delivery
 * is belongs to the bench; a loaded machine may delay it past any tight figure.
 */
const LIVE_WAIT_MS = 15_000;

/** A reader of one server-sent event stream, as a browser's EventSource would read it. */
interface Stream {
  /** The next event of `kind`, or a rejection after `ms`. */
  next(kind: string, ms?: number): Promise<Record<string, unknown>>;
  ended: Promise<void>;
  close(): void;
}

async function listen(t: TestServer): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function openStream(baseUrl: string, token: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/v3/live`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: { kind: string; data: Record<string, unknown> }[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const kind = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (kind && data) events.push({ kind, data: JSON.parse(data) as Record<string, unknown> });
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    async next(kind, ms = LIVE_WAIT_MS) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events.findIndex((e) => e.kind === kind);
        if (found >= 0) return events.splice(found, 1)[0]!.data;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no ${kind} event within ${ms} ms (got ${events.map((e) => e.kind).join(', ')})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, left);
        });
      }
    },
    ended,
    close: () => controller.abort(),
  };
}

describe('the live stream of one server', () => {
  let t: TestServer;
  let base: string;
  beforeAll(async () => {
    t = await startTestServer();
    base = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells the recipient of a private message at once, and ends when the session logs out', async () => {
    const [alice, bob] = [await buildUser(t), await buildUser(t)];
    const stream = await openStream(base, bob.token);
    const sent = await t.post<{ dialogId: number; id: number }>(
      '/api/v3/dialog.create',
      { recipientUserId: bob.id, messageText: '实时吗？' },
      alice.token,
    );
    expect(await stream.next('dialogMessage')).toMatchObject({ dialogId: sent.Data.dialogId, messageId: sent.Data.id });
    expect((await t.post('/api/v3/users/logout', {}, bob.token)).Code).toBe(0);
    await stream.ended;
    stream.close();
  });

  it('is for signed-in members only, and stays open to a member banned meanwhile (the page then learns why)', async () => {
    const res = await fetch(`${base}/api/v3/live`);
    expect(((await res.json()) as { Code: number }).Code).toBe(-3001);
    const member = await buildUser(t);
    const admin = await t.login('admin', 'admin-password-1');
    expect(
      (await t.post('/api/backAdmin/users/update.user', { id: member.id, status: 1, reason: 'x' }, admin)).Code,
    ).toBe(0);
    const stream = await openStream(base, member.token);
    stream.close();
  });
});

/** Two app processes on one database: the stream is held by B, the message goes through A. */
function acrossProcesses(label: string, env: () => Record<string, string>) {
  describe(label, () => {
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      const storage = newStorage();
      a = await startTestServer({ storage, env: env() });
      b = await startTestServer({ storage, env: env() });
    });
    afterAll(async () => {
      await b.close({ keep: true });
      await a.close();
    });

    it('delivers a message sent through process A to a page listening on process B', async () => {
      const [alice, bob] = [await buildUser(a), await buildUser(a)];
      const stream = await openStream(await listen(b), bob.token);
      const sent = await a.post<{ id: number }>(
        '/api/v3/dialog.create',
        { recipientUserId: bob.id, messageText: '跨进程' },
        alice.token,
      );
      expect(sent.Code).toBe(0);
      expect(await stream.next('dialogMessage')).toMatchObject({ messageId: sent.Data.id });
      stream.close();
    });
  });
}

describe.runIf(process.env.DATABASE_URL)('on PostgreSQL', () => {
  acrossProcesses('through LISTEN/NOTIFY', () => ({}));
});
describe.runIf(process.env.REDIS_TEST_URL)('with Redis', () => {
  acrossProcesses('through Redis pub/sub', () => ({ REDIS_URL: process.env.REDIS_TEST_URL! }));
});
