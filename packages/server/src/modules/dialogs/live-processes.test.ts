import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Two real server processes (the built dist/main.js, as `npm start` runs it) on one database: a page whose stream
 * is held by process B hears a private message sent through process A, live (long before the pages' 60 s poll; how
 * fast is the bench's to measure, not a test's: a busy machine delays it). Fan-out goes through
 * PostgreSQL LISTEN/NOTIFY, or Redis pub/sub with REDIS_URL. Needs the build (`npm test` builds first).
 */
const MAIN = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));
const ADMIN = { username: 'procadmin', password: 'proc-admin-Passw0rd' };
/** How long a live event may take before the test fails: far below the 60 s poll it stands in for. */
const LIVE_WAIT_MS = 15_000;

interface Proc {
  base: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REGISTER: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${base}/api/siteinfo.v2`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      // Never leave a slow starter running behind the test.
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    base,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

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
    let a: Proc;
    let b: Proc;
    let cleanup: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-procs-'));
      const schema = process.env.DATABASE_URL ? `p_${randomBytes(6).toString('hex')}` : undefined;
      const shared = { ...env(), DATA_DIR: dataDir, ...(schema ? { DATABASE_SCHEMA: schema } : {}) };
      // A migrates the database first; B starts on the migrated one.
      a = await startProcess(shared);
      b = await startProcess(shared);
      cleanup = async () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        if (schema && process.env.DATABASE_URL) {
          const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
          await client.connect();
          await client.query(`drop schema if exists "${schema}" cascade`);
          await client.end();
        }
      };
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await cleanup();
    });

    it('a page listening on process B hears a message sent through process A', async () => {
      const alice = await member(a.base, 'pa');
      const bob = await member(a.base, 'pb');
      const listening = await firstMessageEvent(b.base, bob.token, LIVE_WAIT_MS);
      const sent = await api<{ id: number }>(
        a.base,
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
