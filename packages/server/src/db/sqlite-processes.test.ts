import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

/**
 * Several processes writing one SQLite file (WORKERS>1 without PostgreSQL): a transaction that reads then writes
 * must wait for another process's writer, never fail with SQLITE_BUSY. Kysely's SQLite dialect begins with a plain
 * (deferred) `begin`, whose upgrade to a write fails at once whatever the busy timeout; ours begins immediate.
 */
const WRITER = fileURLToPath(new URL('../test/sqlite-writer.ts', import.meta.url));
const PROCESSES = 3;
const ROUNDS = 40;

const dirs: string[] = [];
function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-sqlite-procs-'));
  dirs.push(dir);
  const sqlite = new SqliteDatabase(path.join(dir, 'luntan.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table counter (id integer primary key, n integer not null); insert into counter values (1, 0)');
  sqlite.close();
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the writers, lets them go together, and answers what each one did. */
async function runWriters(dataDir: string, mode: 'server' | 'deferred') {
  const children = Array.from({ length: PROCESSES }, () =>
    spawn(process.execPath, ['--conditions=source', '--import', 'tsx', WRITER, dataDir, String(ROUNDS), mode], {
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  try {
    const outputs = children.map((child) => {
      let out = '';
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const printed = (line: string) =>
        new Promise<void>((resolve, reject) => {
          const look = () => out.split('\n').includes(line) && resolve();
          child.stdout.on('data', look);
          look();
          child.once('exit', (code) => reject(new Error(`writer exited (${code}) before "${line}": ${err}`)));
        });
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const ready = printed('ready');
      const read = mode === 'deferred' ? printed('read') : null;
      const result = new Promise<{ done: number; busy: number }>((resolve, reject) => {
        child.once('exit', (code) => {
          const last = out.trim().split('\n').at(-1) ?? '';
          if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as { done: number; busy: number });
          else reject(new Error(`writer failed (${code}): ${err}`));
        });
      });
      return { ready, read, result };
    });
    await Promise.all(outputs.map((o) => o.ready));
    for (const child of children) child.stdin.write('go\n');
    // Deferred: every process holds its first transaction's read before any of them writes.
    if (mode === 'deferred') {
      await Promise.all(outputs.map((o) => o.read));
      for (const child of children) child.stdin.write('go\n');
    }
    return await Promise.all(outputs.map((o) => o.result));
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}

function counter(dataDir: string): number {
  const sqlite = new SqliteDatabase(path.join(dataDir, 'luntan.sqlite'), { readonly: true });
  try {
    return (sqlite.prepare('select n from counter where id = 1').get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
}

describe('SQLite written by several processes', () => {
  it(`${PROCESSES} processes running read-then-write transactions at once never get SQLITE_BUSY`, async () => {
    const dataDir = newDataDir();
    const results = await runWriters(dataDir, 'server');
    expect(results).toEqual(Array.from({ length: PROCESSES }, () => ({ done: ROUNDS, busy: 0 })));
    // No update was lost either: each transaction saw the one before.
    expect(counter(dataDir)).toBe(PROCESSES * ROUNDS);
  }, 120_000);

  it('(what it guards against) with a plain deferred begin the same work fails with SQLITE_BUSY', async () => {
    const dataDir = newDataDir();
    const results = await runWriters(dataDir, 'deferred');
    // In the first round all of them read before any writes: one commits, each of the others fails.
    expect(results.reduce((sum, r) => sum + r.busy, 0)).toBeGreaterThanOrEqual(PROCESSES - 1);
  }, 120_000);
});

describe('transactions on SQLite', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  const openWithOther = async () => {
    const dataDir = newDataDir();
    database = await openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined });
    // Another process's connection that will not wait: it answers SQLITE_BUSY while the write lock is taken.
    const other = new SqliteDatabase(path.join(dataDir, 'luntan.sqlite'));
    other.pragma('busy_timeout = 0');
    return { db: database.db, other };
  };

  it('take the write lock when they begin, before their first statement', async () => {
    const { db, other } = await openWithOther();
    try {
      await db.transaction().execute(async () => {
        expect(() => other.exec('begin immediate')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
      });
      other.exec('begin immediate; rollback');
    } finally {
      other.close();
    }
  });

  it('stay deferred when marked read only, so others may write meanwhile', async () => {
    const { db, other } = await openWithOther();
    try {
      await db
        .transaction()
        .setAccessMode('read only')
        .execute(async (trx) => {
          await sql`select n from counter`.execute(trx);
          other.exec('update counter set n = n + 1');
        });
    } finally {
      other.close();
    }
  });
});
