import { type ThreadDetail } from '@luntan/shared';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { descendants } from './scripts/bench-memory.js';
import { BUILT_ADMIN, isAlive, newBuiltStorage, startBuiltServer, type BuiltServer } from './test/built-server.js';

/**
 * `npm start` stopped the way a service manager or a container runtime stops it: the signal goes to the process it
 * started (npm), which forwards it to its child, the server itself (scripts/start.sh leaves no wrapper). Over SQLite
 * or, with DATABASE_URL, PostgreSQL. Needs `npm run build`.
 */
const WRITERS = 4;
/** Acknowledged writes before the signal is sent, so that it lands in the middle of the stream. */
const WRITES_BEFORE_SIGNAL = 24;
const PORT_FREED_MS = 10_000;

interface Envelope<T> {
  Code: number;
  Data: T;
}

async function call<T>(base: string, url: string, init: { body?: unknown; token?: string } = {}): Promise<Envelope<T>> {
  const res = await fetch(`${base}${url}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return (await res.json()) as Envelope<T>;
}

async function adminToken(base: string): Promise<string> {
  const res = await call<{ accessToken: string }>(base, '/api/v3/users/username.login', { body: BUILT_ADMIN });
  expect(res.Code).toBe(0);
  return res.Data.accessToken;
}

/** Whether something accepts connections on the server's port. */
function listening(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

function commandLine(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
}

function exited(server: BuiltServer): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe.each([
  { signal: 'SIGTERM', workers: 1 },
  { signal: 'SIGTERM', workers: 2 },
  { signal: 'SIGINT', workers: 1 },
] as const)('npm start, then $signal to npm (WORKERS=$workers)', ({ signal, workers }) => {
  it('frees the port, keeps every acknowledged write, exits 0 and leaves no process behind', async () => {
    const storage = newBuiltStorage();
    let server: BuiltServer | undefined;
    let tree: number[] = [];
    try {
      server = await startBuiltServer({ WORKERS: String(workers) }, { storage, viaNpm: true, startupMs: 120_000 });
      const npm = server.child.pid!;
      const below = descendants(npm);
      tree = below.map((p) => p.pid);
      // npm's only child is the server itself (no Node wrapper waiting beside it), with its workers under it.
      const children = below.filter((p) => p.depth === 1);
      expect(children).toHaveLength(1);
      expect(commandLine(children[0]!.pid)).toMatch(/node .*packages\/server\/dist\/main\.js/);
      expect(below.filter((p) => p.depth === 2)).toHaveLength(workers > 1 ? workers : 0);
      expect(below.filter((p) => p.depth > 2)).toEqual([]);

      const token = await adminToken(server.base);
      const acknowledged = new Map<number, string>();
      let signalledAt = 0;
      const writer = async (w: number) => {
        for (let i = 0; ; i += 1) {
          const title = `写入 ${w}-${i}`;
          try {
            const res = await call<ThreadDetail>(server!.base, '/api/v3/thread.create', {
              body: { categoryId: 1, title, content: { text: `正文 ${w}-${i}` } },
              token,
            });
            if (res.Code === 0) acknowledged.set(res.Data.threadId, title);
          } catch (err) {
            // Refused or cut off once the server stops: not acknowledged, so nothing is owed.
            if (signalledAt) return;
            throw err;
          }
        }
      };
      const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      await waitFor('writes before the signal', () => acknowledged.size >= WRITES_BEFORE_SIGNAL, 60_000);
      const done = exited(server);
      signalledAt = Date.now();
      process.kill(npm, signal);

      await waitFor('the port freed', async () => !(await listening(server!.base)), PORT_FREED_MS);
      await writing;
      expect(await done).toEqual({ code: 0, signal: null });
      await waitFor('every process of the tree gone', () => !tree.some(isAlive), 5000);
      if (!storage.schema && workers === 1) {
        // The database was closed: SQLite folds the write-ahead log into the file and removes it on the last close.
        // (Two workers closing at the same moment may each see the other still open and leave the log for the next
        // start to fold in: nothing is lost, but it proves nothing.)
        expect(fs.existsSync(path.join(storage.dataDir, 'luntan.sqlite-wal'))).toBe(false);
      }

      // The same data again: every write that was answered with success is there.
      const again = await startBuiltServer({}, { storage, startupMs: 120_000 });
      try {
        const adminAgain = await adminToken(again.base);
        const missing: number[] = [];
        for (const [threadId, title] of acknowledged) {
          const res = await call<ThreadDetail>(again.base, `/api/v3/thread.detail?threadId=${threadId}`, {
            token: adminAgain,
          });
          if (res.Code !== 0 || res.Data.title !== title) missing.push(threadId);
        }
        expect(missing).toEqual([]);
      } finally {
        expect(await again.stop()).toBe(0);
      }
    } finally {
      await server?.stop({ alsoKill: tree });
      await storage.drop();
    }
  }, 240_000);
});

describe('a request still running at the stop deadline', () => {
  it('loses its connection after STOP_GRACE_MS, and the server still exits 0', async () => {
    let server: BuiltServer | undefined;
    let socket: net.Socket | undefined;
    let tree: number[] = [];
    try {
      server = await startBuiltServer({ STOP_GRACE_MS: '1000' }, { viaNpm: true, startupMs: 120_000 });
      tree = descendants(server.child.pid!).map((p) => p.pid);
      const { hostname, port } = new URL(server.base);
      socket = net.connect(Number(port), hostname);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket!.once('close', () => resolve()));
      socket.on('error', () => {});
      // A body that never comes, on a route that reads the body before anything else (a route that needs a session
      // would answer at once). With `Expect: 100-continue` the server says when it has taken the request, so the
      // signal is sure to find it in flight.
      socket.write(
        'POST /api/v3/users/username.login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          'Content-Length: 1000\r\nExpect: 100-continue\r\n\r\n',
      );
      await waitFor('100 Continue', () => received.includes('100 Continue'), 20_000);
      socket.write('{"username":');
      const done = exited(server);
      process.kill(server.child.pid!, 'SIGTERM');

      await waitFor('the port freed', async () => !(await listening(server!.base)), PORT_FREED_MS);
      await closed;
      // Cut off, not answered: only the 100 Continue came back.
      expect(received).not.toMatch(/HTTP\/1\.1 [2-5]\d\d/);
      expect(await done).toEqual({ code: 0, signal: null });
      await waitFor('every process of the tree gone', () => !tree.some(isAlive), 5000);
    } finally {
      socket?.destroy();
      await server?.stop({ alsoKill: tree });
    }
  }, 180_000);
});
