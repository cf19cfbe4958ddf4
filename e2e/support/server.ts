import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_MAIN = path.join(REPO_ROOT, 'packages/server/dist/main.js');
export const ADMIN = { username: 'e2eadmin', password: 'e2e-admin-Passw0rd' };

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  /** PostgreSQL (DATABASE_URL set for the run): the server's own schema, dropped on stop. Else SQLite in dataDir. */
  postgres: { url: string; schema: string } | null;
  logs: () => string;
  stop: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A probed port that another test file's server took before ours listened on it. */
class PortTaken extends Error {}
/** How many ports a start tries before it gives up (each is probed free just before). */
const PORT_TRIES = 5;

/**
 * Waits until our own process answers: every answer names the process that gave it (LUNTAN_PROCESS_HEADER), so an
 * answer from another file's server that took the port first does not count.
 */
async function waitUntilUp(baseUrl: string, child: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const message = `server exited (${child.exitCode}):\n${logs()}`;
      throw logs().includes('EADDRINUSE') ? new PortTaken(message) : new Error(message);
    }
    try {
      const response = await fetch(`${baseUrl}/api/siteinfo.v2`);
      if (response.ok && response.headers.get('x-luntan-pid') === String(child.pid)) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not start within 60 s:\n${logs()}`);
}

/**
 * Starts the built server (npm run build must have run) on a free port with a fresh data directory, and, when the
 * run has DATABASE_URL (npm test's PostgreSQL pass), a fresh schema of that database; SQLite otherwise. `env` adds
 * to or overrides the server's environment (`PAYMENT_SANDBOX: '1'` turns the sandbox payment provider on). When
 * another server takes the probed port first, it starts again on another one.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run npm run build first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-e2e-'));
  const url = process.env.DATABASE_URL;
  const postgres = url ? { url, schema: `e_${randomBytes(6).toString('hex')}` } : null;
  const drop = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (postgres) await dropSchema(postgres);
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(dataDir, postgres, env, drop);
    } catch (error) {
      if (error instanceof PortTaken && attempt < PORT_TRIES) continue;
      await drop();
      throw error;
    }
  }
}

async function dropSchema({ url, schema }: { url: string; schema: string }): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

async function startOnce(
  dataDir: string,
  postgres: RunningServer['postgres'],
  env: Record<string, string>,
  drop: () => Promise<void>,
): Promise<RunningServer> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: postgres?.url ?? '',
      DATABASE_SCHEMA: postgres?.schema ?? '',
      // Browser tests log in and register often from one address.
      RATE_LIMIT_REGISTER: '1000',
      RATE_LIMIT_LOGIN_FAILURES: '1000',
      // Payments go through the sandbox provider, whose checkout page is on the forum itself.
      PAYMENT_SANDBOX: '1',
      ...env,
      // Which process answered: waitUntilUp needs it.
      LUNTAN_PROCESS_HEADER: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const logs = (): string => output;
  try {
    await waitUntilUp(baseUrl, child, logs);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    postgres,
    logs,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await drop();
    },
  };
}
