import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Envelope } from '@luntan/shared';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { loadConfig } from '../config.js';
import { createServer, type Server } from '../server.js';

export const ADMIN = { username: 'admin', password: 'admin-password-1' };

/** Where a test server keeps its data: a temp folder (SQLite) or a fresh schema (when DATABASE_URL is set). */
export interface TestStorage {
  dataDir: string;
  schema: string | undefined;
}

export function newStorage(): TestStorage {
  return {
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-test-')),
    schema: process.env.DATABASE_URL ? `t_${randomBytes(6).toString('hex')}` : undefined,
  };
}

export interface TestServer {
  server: Server;
  app: FastifyInstance;
  storage: TestStorage;
  call<T = unknown>(
    method: InjectOptions['method'],
    url: string,
    options?: {
      token?: string | undefined;
      body?: unknown;
      headers?: Record<string, string>;
      remoteAddress?: string;
    },
  ): Promise<{ status: number; body: Envelope<T>; headers: Record<string, unknown> }>;
  get<T = unknown>(url: string, token?: string): Promise<Envelope<T>>;
  post<T = unknown>(url: string, body: unknown, token?: string): Promise<Envelope<T>>;
  login(username: string, password: string): Promise<string>;
  /** Stops the app; with `keep` the data stays for a restart on the same storage. */
  close(options?: { keep?: boolean }): Promise<void>;
}

/** A real server over a real database, spoken to over HTTP with fastify.inject. */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    storage?: TestStorage;
    /** Receives the server's log (JSON lines) at LOG_LEVEL info, unless env sets another level. */
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestServer> {
  const storage = options.storage ?? newStorage();
  const config = loadConfig({
    DATA_DIR: storage.dataDir,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(storage.schema ? { DATABASE_SCHEMA: storage.schema } : {}),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    RATE_LIMIT_REGISTER: '1000',
    RATE_LIMIT_LOGIN_FAILURES: '1000',
    ...options.env,
  });
  const server = await createServer(config, options.logStream ? { logStream: options.logStream } : {});
  const app = server.app;

  const t: TestServer = {
    server,
    app,
    storage,
    async call(method, url, { token, body, headers, remoteAddress } = {}) {
      const res = await app.inject({
        method,
        url,
        ...(remoteAddress ? { remoteAddress } : {}),
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
      });
      // What the write announced is delivered (notices made, live events sent) before the test looks: a state to
      // wait for, not a time.
      if (method !== 'GET' && method !== 'HEAD') await app.ctx.events.drain();
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
    async get(url, token) {
      return (await t.call('GET', url, { token })).body as never;
    },
    async post(url, body, token) {
      return (await t.call('POST', url, { token, body })).body as never;
    },
    async login(username, password) {
      const res = await t.post<{ accessToken: string }>('/api/v3/users/username.login', { username, password });
      if (res.Code !== 0) throw new Error(`login of ${username} failed: ${res.Code} ${res.Message}`);
      return res.Data.accessToken;
    },
    async close({ keep = false } = {}) {
      await server.close();
      if (keep) return;
      fs.rmSync(storage.dataDir, { recursive: true, force: true });
      if (storage.schema && process.env.DATABASE_URL) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists "${storage.schema}" cascade`);
        await client.end();
      }
    },
  };
  return t;
}

let counter = 0;

/** Registers a new member over the API and answers its id and token. */
export async function buildUser(
  t: TestServer,
  overrides: { username?: string; password?: string; nickname?: string } = {},
): Promise<{ id: number; username: string; password: string; token: string }> {
  counter += 1;
  const username =
    overrides.username ?? `u${process.pid % 1000}_${counter}${randomBytes(2).toString('hex')}`.slice(0, 15);
  const password = overrides.password ?? 'password-123';
  const res = await t.post<{ userId: number; accessToken: string }>('/api/v3/users/username.register', {
    username,
    password,
    ...(overrides.nickname ? { nickname: overrides.nickname } : {}),
  });
  if (res.Code !== 0) throw new Error(`buildUser failed: ${res.Code} ${res.Message}`);
  return { id: res.Data.userId, username, password, token: res.Data.accessToken };
}
