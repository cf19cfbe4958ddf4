import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The built server (dist/main.js, as `npm start` runs it) in a child process on a free port over fresh storage (a
 * temp DATA_DIR, and a fresh schema when DATABASE_URL is set), spoken to over real HTTP. Needs `npm run build`.
 */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const BUILT_ADMIN = { username: 'clusteradmin', password: 'cluster-admin-Passw0rd' };

export interface BuiltServer {
  base: string;
  child: ChildProcess;
  /** Everything the processes wrote to stdout and stderr so far. */
  output(): string;
  /**
   * SIGTERM, then SIGKILL after `graceMs`; kills `alsoKill` (pids seen below it) if they outlived it; drops the
   * storage it made.
   */
  stop(options?: { alsoKill?: number[]; graceMs?: number }): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A temp DATA_DIR, and a fresh schema when DATABASE_URL is set: one forum's data, which may outlive a server. */
export interface BuiltStorage {
  dataDir: string;
  schema: string | undefined;
  drop(): Promise<void>;
}

export function newBuiltStorage(): BuiltStorage {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-built-'));
  const schema = process.env.DATABASE_URL ? `c_${randomBytes(6).toString('hex')}` : undefined;
  return {
    dataDir,
    schema,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema && process.env.DATABASE_URL) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      }
    },
  };
}

export interface StartOptions {
  /** How long start-up may take (it may be slow on a busy machine). */
  startupMs?: number;
  /** Data to start on; the caller drops it. Default: fresh storage, dropped by `stop()`. */
  storage?: BuiltStorage;
  /**
   * Start it as a service manager does: `npm start` as the child (BUILD_ON_START=0: serving what is built, never
   * building under other tests' feet). Default: `node dist/main.js`.
   */
  viaNpm?: boolean;
}

/** A probed port that another test file's server took before ours listened on it. */
class PortTaken extends Error {}
/** How many ports a start tries before it gives up (each is probed free just before). */
const PORT_TRIES = 5;

/**
 * Starts it and resolves once the banner is printed and the API answers. The banner is printed by our own process
 * once it listens, so the answer cannot come from another file's server that took the port first; when that
 * happens our process exits with EADDRINUSE and the start is tried again on another port.
 */
export async function startBuiltServer(env: Record<string, string>, options: StartOptions = {}): Promise<BuiltServer> {
  const storage = options.storage ?? newBuiltStorage();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(env, storage, options);
    } catch (err) {
      if (err instanceof PortTaken && attempt < PORT_TRIES) continue;
      if (!options.storage) await storage.drop();
      throw err;
    }
  }
}

async function startOnce(
  env: Record<string, string>,
  storage: BuiltStorage,
  { startupMs = 90_000, storage: given, viaNpm = false }: StartOptions,
): Promise<BuiltServer> {
  const port = await freePort();
  let output = '';
  const [command, args] = viaNpm ? ['npm', ['start']] : [process.execPath, [MAIN]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      REDIS_URL: '',
      DATA_DIR: storage.dataDir,
      ...(storage.schema ? { DATABASE_SCHEMA: storage.schema } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: BUILT_ADMIN.username,
      ADMIN_PASSWORD: BUILT_ADMIN.password,
      LOG_LEVEL: 'warn',
      ...(viaNpm ? { BUILD_ON_START: '0' } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));

  const halt = async (graceMs: number) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  };
  const stop: BuiltServer['stop'] = async ({ alsoKill = [], graceMs = 15_000 } = {}) => {
    await halt(graceMs);
    for (const pid of alsoKill) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    if (!given) await storage.drop();
    return child.exitCode;
  };

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startupMs;
  try {
    for (;;) {
      if (child.exitCode !== null) {
        const message = `server exited (${child.exitCode}): ${output}`;
        throw output.includes('EADDRINUSE') ? new PortTaken(message) : new Error(message);
      }
      if (output.includes('Luntan is running')) {
        try {
          if ((await fetch(`${base}/api/siteinfo.v2`)).ok) break;
        } catch {
          // not answering yet
        }
      }
      if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (err) {
    await halt(5000);
    throw err;
  }
  return { base, child, output: () => output, stop };
}

export interface Answer<T = unknown> {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { Code: number; Message?: string; Data: T };
}

/**
 * A client on one keep-alive connection (maxSockets 1), so that every request it makes is answered by the same
 * process: the cluster hands out connections, not requests.
 */
export class PinnedClient {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  worker = '';
  pid = 0;

  constructor(readonly base: string) {}

  async call<T = unknown>(
    method: 'GET' | 'POST',
    url: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Answer<T>> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const res = await this.open(
      method,
      url,
      {
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      payload,
      options.timeoutMs ?? 20_000,
    );
    let text = '';
    for await (const chunk of res) text += (chunk as Buffer).toString();
    this.worker = String(res.headers['x-luntan-worker'] ?? '');
    this.pid = Number(res.headers['x-luntan-pid'] ?? 0);
    return { status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as Answer<T>['body'] };
  }

  /** Starts a request and resolves with the response as soon as its head arrives (a stream stays open). */
  open(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload?: string,
    timeoutMs?: number,
  ): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${this.base}${url}`, { method, agent: this.agent, headers }, resolve);
      req.on('error', reject);
      if (timeoutMs) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${url} in ${timeoutMs} ms`)));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Opens connections until one is answered by each of `count` different worker processes. */
export async function clientsOnEveryWorker(base: string, count: number, tries = 40): Promise<PinnedClient[]> {
  const found = new Map<string, PinnedClient>();
  for (let i = 0; i < tries && found.size < count; i += 1) {
    const client = new PinnedClient(base);
    await client.call('GET', '/api/siteinfo.v2');
    if (found.has(client.worker)) client.close();
    else found.set(client.worker, client);
  }
  if (found.size < count) {
    for (const client of found.values()) client.close();
    throw new Error(`only ${found.size} of ${count} workers answered`);
  }
  return [...found.values()].sort((x, y) => Number(x.worker) - Number(y.worker));
}

/** Opens connections until one is answered by the worker with cluster id `worker`. */
export async function clientOnWorker(base: string, worker: string, tries = 40): Promise<PinnedClient> {
  for (let i = 0; i < tries; i += 1) {
    const client = new PinnedClient(base);
    await client.call('GET', '/api/siteinfo.v2');
    if (client.worker === worker) return client;
    client.close();
  }
  throw new Error(`worker ${worker} did not answer`);
}
