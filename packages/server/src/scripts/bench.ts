import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { ConfigError } from '../config.js';
import type { Database } from '../db/database.js';
import { MEASUREMENTS, resultTable, runMeasurement, type MeasurementResult } from './bench-measurements.js';
import { openForumDatabase, seedWithProgress } from './forum-database.js';
import { DEMO_PASSWORD } from './demo-seeder.js';
import { demoUserProfiles } from './demo-users.js';

/**
 * `npm run bench`: seeds a dedicated forum (100,000 threads and 1,000,000 replies and comments unless told
 * otherwise; an existing one of that size is reused), starts the built server on it as `npm start` does, on a
 * free port, and measures every entry of MEASUREMENTS with autocannon. SQLite by default; PostgreSQL with
 * DATABASE_URL set (or --db postgres); --db both runs one after the other.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/luntan_bench';

const USAGE = `Usage: npm run bench -- [--db sqlite|postgres|both] [--threads N] [--posts M] [--seconds S] [options]
  --db            which database (default: postgres when DATABASE_URL is set, else sqlite)
  --threads       threads in the bench forum (default 100000)
  --posts         replies and comments (default 10 per thread)
  --data-dir      SQLite bench data dir (default data/bench; BENCH_DATA_DIR)
  --database-url  PostgreSQL bench database, created if missing (default DATABASE_URL, else ${DEFAULT_PG_URL})
  --reseed        start from an empty forum instead of reusing (and topping up) the existing one
  --seconds       seconds of load per measurement (default 10), after --warmup seconds (default 3)
  --only          comma-separated parts of measurement names to run (e.g. --only search,detail)
  --out           also write the tables (Markdown) to this file`;

interface BenchOptions {
  dbs: ('sqlite' | 'postgres')[];
  threads: number;
  posts: number;
  dataDir: string;
  databaseUrl: string;
  reseed: boolean;
  seconds: number;
  warmupSeconds: number;
  only: string[];
  out: string | undefined;
}

function integer(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`--${name} must be an integer of at least ${min}`);
  return n;
}

function parseBenchArgs(args: string[]): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      db: { type: 'string' },
      threads: { type: 'string' },
      posts: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      reseed: { type: 'boolean' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const db = values.db ?? (process.env.DATABASE_URL ? 'postgres' : 'sqlite');
  if (!['sqlite', 'postgres', 'both'].includes(db)) throw new ConfigError('--db must be sqlite, postgres or both');
  const threads = integer('threads', values.threads, 100_000, 1);
  return {
    dbs: db === 'both' ? ['sqlite', 'postgres'] : [db as 'sqlite' | 'postgres'],
    threads,
    posts: integer('posts', values.posts, threads * 10),
    dataDir: path.resolve(values['data-dir'] ?? process.env.BENCH_DATA_DIR ?? path.join(ROOT, 'data', 'bench')),
    databaseUrl: values['database-url'] ?? process.env.DATABASE_URL ?? DEFAULT_PG_URL,
    reseed: values.reseed ?? false,
    seconds: integer('seconds', values.seconds, 10, 1),
    warmupSeconds: integer('warmup', values.warmup, 3),
    only: (values.only ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    out: values.out,
  };
}

/** Creates the PostgreSQL database if missing (dropping it first with --reseed). */
async function preparePostgres(url: string, reseed: boolean): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ConfigError(`unexpected database name "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    if (reseed) await client.query(`drop database if exists "${name}" with (force)`);
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

function envFor(dbName: 'sqlite' | 'postgres', o: BenchOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: o.dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_SCHEMA;
  if (dbName === 'postgres') env.DATABASE_URL = o.databaseUrl;
  else delete env.DATABASE_URL;
  return env;
}

const countOf = async (database: Database, table: 'threads' | 'posts') =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Brings the bench forum to the requested size (seeding only what is missing) and picks threads to read. */
async function prepareForum(dbName: 'sqlite' | 'postgres', o: BenchOptions): Promise<number[]> {
  if (dbName === 'postgres') await preparePostgres(o.databaseUrl, o.reseed);
  else if (o.reseed) fs.rmSync(o.dataDir, { recursive: true, force: true });
  const database = await openForumDatabase(envFor(dbName, o));
  try {
    const threads = await countOf(database, 'threads');
    const missing = o.threads - threads;
    if (missing > 0) {
      const posts = Math.round((o.posts * missing) / o.threads);
      console.log(`${dbName}: ${threads} threads present, adding ${missing} threads and ${posts} posts`);
      const r = await seedWithProgress(database, { threads: missing, posts, users: 500, days: 730, batch: 1000 });
      console.log(`${dbName}: seeded in ${r.seconds.toFixed(0)} s`);
    } else {
      console.log(`${dbName}: reusing the forum (${threads} threads, ${await countOf(database, 'posts')} posts)`);
    }
    const { rows } = await sql<{ id: number }>`select id from threads
      where deleted_at is null and is_draft = 0 and is_approved = 1 order by random() limit 2000`.execute(database.db);
    return rows.map((r) => r.id);
  } finally {
    await database.destroy();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the server as `npm start` does (building first when sources changed), in its own process group. */
async function startServer(env: NodeJS.ProcessEnv): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/siteinfo.v2`);
      if (res.ok) return { baseUrl, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  stopServer(child);
  throw new Error('the server did not start within 10 minutes');
}

function stopServer(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
}

/** Signs in the first demo user (every demo user's password is DEMO_PASSWORD) for the member rows. */
async function signInDemoMember(baseUrl: string): Promise<string> {
  const username = demoUserProfiles(1)[0]!.username;
  const res = await fetch(`${baseUrl}/api/v3/users/username.login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  const answer = (await res.json()) as { Code: number; Message: string; Data: { accessToken: string } };
  if (answer.Code !== 0) throw new Error(`signing in the demo member ${username} failed: ${answer.Message}`);
  return answer.Data.accessToken;
}

async function benchOne(dbName: 'sqlite' | 'postgres', o: BenchOptions): Promise<MeasurementResult[]> {
  const threadIds = await prepareForum(dbName, o);
  const { baseUrl, child } = await startServer(envFor(dbName, o));
  const results: MeasurementResult[] = [];
  try {
    const memberToken = await signInDemoMember(baseUrl);
    const chosen = MEASUREMENTS.filter(
      (m) => o.only.length === 0 || o.only.some((part) => m.name.toLowerCase().includes(part)),
    );
    for (const m of chosen) {
      process.stderr.write(`${dbName}: ${m.name}...\n`);
      results.push(
        await runMeasurement(
          m,
          { baseUrl, threadIds, memberToken },
          { seconds: o.seconds, warmupSeconds: o.warmupSeconds },
        ),
      );
    }
  } finally {
    stopServer(child);
  }
  return results;
}

async function main(): Promise<void> {
  const o = parseBenchArgs(process.argv.slice(2));
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(
    os.totalmem() / 2 ** 30,
  )} GiB, Node ${process.version}`;
  const tables: string[] = [];
  for (const dbName of o.dbs) {
    // The machine may be shared: the load before the run says how much of it the measurement had.
    const load = os.loadavg()[0]!.toFixed(1);
    const results = await benchOne(dbName, o);
    const where =
      dbName === 'sqlite' ? `SQLite (${o.dataDir})` : `PostgreSQL (${new URL(o.databaseUrl).pathname.slice(1)})`;
    const table = resultTable(
      `${where}: ${o.threads.toLocaleString('en')} threads, ${o.posts.toLocaleString('en')} posts; ` +
        `${o.seconds} s per row after ${o.warmupSeconds} s of warm-up; load average ${load} before`,
      results,
    );
    tables.push(table);
    console.log(`\n${table}\n`);
  }
  const report = [`Machine: ${machine}`, '', ...tables.flatMap((t) => [t, ''])].join('\n');
  console.log(`Machine: ${machine}`);
  if (o.out) fs.writeFileSync(o.out, report);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
