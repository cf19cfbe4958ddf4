import { Code } from '@luntan/shared';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forumKey } from './core/forum-key.js';
import { startBuiltServer, type BuiltServer, type BuiltStorage } from './test/built-server.js';
import { startTestBucket, type TestBucket } from './test/test-bucket.js';

/**
 * Two machines, proven (docs/deployment.md, "Many machines"): two processes of the built server, each with a
 * DATA_DIR of its own (nothing on one machine's disk is seen by the other), on one fresh PostgreSQL database, one
 * Redis and one S3 stand-in (s3rver in this process, test/test-bucket.ts). What one machine does, the other shows:
 * its kept guest pages are cleared, its live streams hear it, its sign-in throttle counts it, its files are served.
 * Runs in `npm test`'s PostgreSQL pass (DATABASE_URL, with REDIS_TEST_URL as CI sets it), else is skipped. Needs the
 * build, the web's too (pages).
 */
const LOGIN = '/api/v3/users/username.login';
const LOGIN_FAILURES = 4;
/** How long the other machine may take to hear a write or an event: far below the guest cache's minute. */
const WAIT_MS = 20_000;

interface Envelope<T> {
  Code: number;
  Message: string;
  Data: T;
}

async function api<T>(
  base: string,
  url: string,
  options: { body?: unknown; token?: string; from?: string } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const res = await fetch(base + url, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'x-forwarded-for': options.from ?? '10.9.0.1',
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

/** A machine's own disk: a temp DATA_DIR, removed at the end (the database is the test's). */
function machineDisk(name: string): BuiltStorage {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `luntan-${name}-`));
  return {
    dataDir,
    schema: undefined,
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A page's live stream (SSE): every event read so far, and a wait for one that `matches`. */
async function liveStream(base: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v3/live`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let received = '';
  let heard = () => undefined as void;
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += decoder.decode(value, { stream: true });
        heard();
      }
    } catch {
      // closed by the test
    }
  })();
  const events = () =>
    [...received.matchAll(/event: (\w+)\ndata: (.+)\n\n/g)].map((m) => ({
      kind: m[1]!,
      data: JSON.parse(m[2]!) as Record<string, unknown>,
    }));
  const until = async (matches: (received: string) => boolean): Promise<boolean> => {
    const deadline = Date.now() + WAIT_MS;
    while (!matches(received) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        heard = resolve;
        setTimeout(resolve, 200);
      });
    }
    return matches(received);
  };
  return { events, until, close: () => controller.abort() };
}

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_TEST_URL)(
  'two machines (own DATA_DIRs) on one PostgreSQL database, one Redis and one object store',
  () => {
    const database = `luntan_mm_${randomBytes(5).toString('hex')}`;
    const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/none');
    databaseUrl.pathname = `/${database}`;
    let disks: BuiltStorage[] = [];
    let bucket: TestBucket | undefined;
    let a: BuiltServer | undefined;
    let b: BuiltServer | undefined;
    let redis: Redis | undefined;
    /** The forum's Redis keys start with this (core/rate-limit.ts, core/forum-key.ts). */
    const redisPrefix = `luntan:${forumKey({ databaseUrl: databaseUrl.href, databaseSchema: undefined, dataDir: '' })}:`;

    /** Runs `sql` on the server's maintenance database (DATABASE_URL) or, with `url`, on another. */
    const postgres = async (sql: string, url = process.env.DATABASE_URL) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    };

    beforeAll(async () => {
      await postgres(`create database "${database}"`);
      bucket = await startTestBucket('luntan-machines');
      disks = [machineDisk('machine-a'), machineDisk('machine-b')];
      redis = new Redis(process.env.REDIS_TEST_URL!, { maxRetriesPerRequest: 1 });
      const env = {
        DATABASE_URL: databaseUrl.href,
        REDIS_URL: process.env.REDIS_TEST_URL!,
        STORAGE_URL: bucket.storageUrl,
        // A guest's page is kept a minute: only the other machine's signal can explain a fresh one.
        GUEST_CACHE_MS: '60000',
        RATE_LIMIT_LOGIN_FAILURES: String(LOGIN_FAILURES),
        RATE_LIMIT_REGISTER: '1000',
        // Behind the load balancer: the client's address is the one it forwards.
        TRUST_PROXY: '1',
      };
      // A migrates the database first; B starts on the migrated one.
      a = await startBuiltServer(env, { storage: disks[0]! });
      b = await startBuiltServer(env, { storage: disks[1]! });
    }, 240_000);

    afterAll(async () => {
      await Promise.all([a?.stop({ graceMs: 5000 }), b?.stop({ graceMs: 5000 })]);
      await Promise.all(disks.map((disk) => disk.drop()));
      if (redis) {
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
      await bucket?.close();
      await postgres(`drop database if exists "${database}" with (force)`);
    }, 60_000);

    const member = async (server: BuiltServer, name: string) => {
      const username = `${name}${randomBytes(3).toString('hex')}`;
      const res = await api<{ userId: number; accessToken: string }>(server.base, '/api/v3/users/username.register', {
        body: { username, password: 'password-123' },
      });
      expect(res.body.Code).toBe(0);
      return { id: res.body.Data.userId, token: res.body.Data.accessToken };
    };

    it("clears B's kept guest pages when A takes a write", async () => {
      const author = await member(a!, 'ma');
      const made = await api<{ threadId: number }>(a!.base, '/api/v3/thread.create', {
        body: { categoryId: 1, title: '两台机器', content: { text: '写在 A 上的主题' } },
        token: author.token,
      });
      expect(made.body.Code).toBe(0);
      const page = async () => {
        const res = await fetch(`${b!.base}/thread/${made.body.Data.threadId}`);
        expect(res.status).toBe(200);
        return { cache: res.headers.get('x-guest-cache'), html: await res.text() };
      };
      // The writes just made through A clear B's pages too, a moment later: read until B serves its kept page.
      const settled = Date.now() + WAIT_MS;
      let first = await page();
      while (first.cache !== 'hit' && Date.now() < settled) {
        await sleep(50);
        first = await page();
      }
      expect(first.cache).toBe('hit');
      expect(first.html).toContain('写在 A 上的主题');

      const text = `从 A 回复 ${randomBytes(3).toString('hex')}`;
      const replied = await api(a!.base, '/api/v3/posts.create', {
        body: { id: made.body.Data.threadId, content: text },
        token: author.token,
      });
      expect(replied.body.Code).toBe(0);
      expect(first.html).not.toContain(text);

      const deadline = Date.now() + WAIT_MS;
      let seen = await page();
      while (!seen.html.includes(text) && Date.now() < deadline) {
        await sleep(50);
        seen = await page();
      }
      expect(seen.html).toContain(text);
      expect(seen.cache).toBe('miss');
    }, 90_000);

    it("delivers a message and a notice sent through A on a page's live stream held by B", async () => {
      const alice = await member(a!, 'mb');
      const bob = await member(a!, 'mc');
      const bobsThread = await api<{ threadId: number }>(a!.base, '/api/v3/thread.create', {
        body: { categoryId: 1, title: '等回复', content: { text: '在 B 上听着' } },
        token: bob.token,
      });
      expect(bobsThread.body.Code).toBe(0);
      const stream = await liveStream(b!.base, bob.token);
      try {
        expect(await stream.until((r) => r.includes(': connected'))).toBe(true);
        const sent = await api<{ id: number }>(a!.base, '/api/v3/dialog.create', {
          body: { recipientUserId: bob.id, messageText: '从另一台机器来' },
          token: alice.token,
        });
        expect(sent.body.Code).toBe(0);
        const reply = await api(a!.base, '/api/v3/posts.create', {
          body: { id: bobsThread.body.Data.threadId, content: '回复你的主题' },
          token: alice.token,
        });
        expect(reply.body.Code).toBe(0);
        await stream.until(
          () =>
            stream.events().some((e) => e.kind === 'dialogMessage') &&
            stream.events().some((e) => e.kind === 'notification'),
        );
        const events = stream.events();
        expect(events.find((e) => e.kind === 'dialogMessage')?.data).toMatchObject({ messageId: sent.body.Data.id });
        expect(events.find((e) => e.kind === 'notification')).toBeDefined();
      } finally {
        stream.close();
      }
    }, 60_000);

    it('counts failed sign-ins from one address on both machines, in Redis', async () => {
      const from = '10.2.0.7';
      const attempt = (server: BuiltServer, i: number) =>
        api(server.base, LOGIN, { body: { username: `nobody${i}`, password: 'wrong-guess' }, from });
      // Alternating machines: each sees only half of the attempts, the limit still comes at the same count.
      for (let i = 0; i < LOGIN_FAILURES; i += 1) {
        expect((await attempt(i % 2 === 0 ? a! : b!, i)).body.Code).toBe(Code.LOGIN_FAILED);
      }
      const refused = await attempt(a!, LOGIN_FAILURES);
      expect(refused.status).toBe(429);
      expect(refused.body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect((await attempt(b!, LOGIN_FAILURES + 1)).body.Code).toBe(Code.TOO_MANY_REQUESTS);
      // The count is Redis's (the forum's keys), not the database's table.
      expect(await redis!.get(`${redisPrefix}login_ip:${from}`)).toBe(String(LOGIN_FAILURES));
      expect(await postgres(`select key from rate_limits where key like '%login%'`, databaseUrl.href)).toEqual([]);
      // Another address is not held back.
      expect(
        (await api(b!.base, LOGIN, { body: { username: 'nobody', password: 'x' }, from: '10.2.0.8' })).body.Code,
      ).toBe(Code.LOGIN_FAILED);
    });

    it('serves from B a file uploaded through A, kept in the object store', async () => {
      const uploader = await member(a!, 'md');
      const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#c03' } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('type', '1');
      form.append('file', new Blob([png], { type: 'image/png' }), 'machine-a.png');
      const res = await fetch(`${a!.base}/api/v3/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${uploader.token}`, 'x-forwarded-for': '10.9.0.1' },
        body: form,
      });
      const uploaded = (await res.json()) as Envelope<{ url: string; fileKey: string }>;
      expect(uploaded.Code, uploaded.Message).toBe(0);

      const fromA = await fetch(a!.base + uploaded.Data.url);
      const fromB = await fetch(b!.base + uploaded.Data.url);
      expect([fromA.status, fromB.status]).toEqual([200, 200]);
      expect(fromB.headers.get('content-type')).toMatch(/^image\//);
      const bytes = Buffer.from(await fromB.arrayBuffer());
      expect(bytes.equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
      expect((await sharp(bytes).metadata()).width).toBe(24);
      // It is kept in the bucket.
      const keys = [...(await bucket!.objects()).keys()];
      expect(keys.filter((key) => key.includes(uploaded.Data.fileKey))).not.toEqual([]);
    }, 60_000);
  },
);
