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
import { browserTables, runBrowserBench, type BrowserReport } from './bench-browser.js';
import { fetchRaw, startCeiling } from './bench-ceiling.js';
import { runImportBench } from './bench-import.js';
import {
  MEASUREMENTS,
  requestHeaders,
  resultTable,
  ROW,
  runMeasurement,
  THREAD_POOL,
  type BenchContext,
  type HttpMeasurement,
  type Measurement,
  type MeasurementResult,
  settleLoad,
} from './bench-measurements.js';
import { memoryTable, ServerMemory, type ProcessMemory } from './bench-memory.js';
import { RENDER_POSTS, runRenderBench, type RenderBenchResult } from './bench-render.js';
import { evaluateIssueTargets, targetsTable, type TargetInput, type TargetRow } from './bench-targets.js';
import { openForumDatabase, seedWithProgress } from './forum-database.js';
import { DEMO_PASSWORD } from './demo-seeder.js';
import { demoUserProfiles } from './demo-users.js';

/**
 * `npm run bench`: seeds a dedicated forum (100,000 threads and 1,000,000 replies and comments unless told
 * otherwise; an existing one of that size is reused), starts the built server on it as `npm start` does, on a
 * free port, and measures every entry of MEASUREMENTS with autocannon. SQLite by default; PostgreSQL with
 * DATABASE_URL set (or --db postgres); --db both runs one after the other. For each database, once per value of
 * --workers (WORKERS of the server): the rows, the memory of each server process, and (first value only) page
 * loads in Chromium. Rows marked `withoutGuestCache` run against a second server started with GUEST_CACHE_MS=0.
 * Each database's output ends with the targets table (bench-targets.ts): rates as shares of the member's thread.list
 * and of a bare Fastify server answering the kept page's bytes (bench-ceiling.ts), measured in the same run, and
 * the CPU a thread page of 20 posts takes to render from data (bench-render.ts, in this process, first of all).
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/luntan_bench';

const USAGE = `Usage: npm run bench -- [--db sqlite|postgres|both] [--threads N] [--posts M] [--seconds S] [options]
  --db            which database (default: postgres when DATABASE_URL is set, else sqlite)
  --threads       threads in the bench forum (default 100000)
  --posts         replies and comments in all, not per thread (default threads x 10); a forum reused keeps
                  its own: the tables name what it holds
  --data-dir      SQLite bench data dir (default data/bench; BENCH_DATA_DIR)
  --database-url  PostgreSQL bench database, created if missing (default DATABASE_URL, else ${DEFAULT_PG_URL})
  --reseed        start from an empty forum instead of reusing (and topping up) the existing one
  --seconds       seconds of load per measurement (default 10), after --warmup seconds (default 3)
  --settle        seconds of every row's load on each server before its first row, unrecorded (default 30):
                  the JIT compiles what the pages run before anything is measured (0: none)
  --only          comma-separated parts of measurement names to run (e.g. --only search,detail); "in-process":
                  only the in-process render of a thread page (bench-render.ts)
  --workers       server processes (WORKERS), comma-separated, "all" = one per core (default 1,all);
                  one server start and one table per value
  --no-browser    skip the page loads in Chromium (CHROMIUM_PATH, default /usr/bin/chromium)
  --out           also write the tables (Markdown) to this file
  --import        instead: the Discuz! Q importer's time and memory on a generated site
                  (--threads, default 100000, --posts-per-thread, default 10; bench-import.ts)`;

type DatabaseName = 'sqlite' | 'postgres';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BROWSER_LOADS = 3;

interface BenchOptions {
  dbs: DatabaseName[];
  threads: number;
  posts: number;
  dataDir: string;
  databaseUrl: string;
  reseed: boolean;
  seconds: number;
  warmupSeconds: number;
  settleSeconds: number;
  only: string[];
  workers: number[];
  browser: boolean;
  out: string | undefined;
}

/** `1,all` → [1, 2] on two cores; duplicates (1,all on one core) are measured once. */
function parseWorkers(value: string, cores: number): number[] {
  const counts = value.split(',').map((part) => {
    const p = part.trim().toLowerCase();
    if (p === 'all') return cores;
    const n = Number(p);
    if (!Number.isInteger(n) || n < 1) throw new ConfigError('--workers must list integers of at least 1 or "all"');
    return n;
  });
  return [...new Set(counts)];
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
      settle: { type: 'string' },
      only: { type: 'string' },
      workers: { type: 'string' },
      'no-browser': { type: 'boolean' },
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
    dbs: db === 'both' ? ['sqlite', 'postgres'] : [db as DatabaseName],
    threads,
    posts: integer('posts', values.posts, threads * 10),
    dataDir: path.resolve(values['data-dir'] ?? process.env.BENCH_DATA_DIR ?? path.join(ROOT, 'data', 'bench')),
    databaseUrl: values['database-url'] ?? process.env.DATABASE_URL ?? DEFAULT_PG_URL,
    reseed: values.reseed ?? false,
    seconds: integer('seconds', values.seconds, 10, 1),
    warmupSeconds: integer('warmup', values.warmup, 3),
    settleSeconds: integer('settle', values.settle, 30),
    only: (values.only ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    workers: parseWorkers(values.workers ?? '1,all', os.cpus().length),
    browser: !values['no-browser'],
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

function envFor(dbName: DatabaseName, o: BenchOptions): NodeJS.ProcessEnv {
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

/** The forum measured: what it holds, and the threads the rows read. */
interface BenchForum {
  threads: number;
  posts: number;
  threadIds: number[];
}

/** Brings the bench forum to the requested size (seeding only what is missing) and picks threads to read. */
async function prepareForum(dbName: DatabaseName, o: BenchOptions): Promise<BenchForum> {
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
    // Posts are counted as seeded: each thread's first post and its replies and comments.
    const held = { threads: await countOf(database, 'threads'), posts: await countOf(database, 'posts') };
    const replies = held.posts - held.threads;
    if (Math.abs(replies - o.posts) > Math.max(10, o.posts * 0.1)) {
      console.warn(
        `${dbName}: the forum holds ${replies.toLocaleString('en')} replies and comments, not the ` +
          `${o.posts.toLocaleString('en')} asked for (--reseed seeds it anew): the tables name what it holds`,
      );
    }
    const { rows } = await sql<{ id: number }>`select id from threads
      where deleted_at is null and is_draft = 0 and is_approved = 1 order by random() limit ${THREAD_POOL}`.execute(
      database.db,
    );
    return { ...held, threadIds: rows.map((r) => r.id) };
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

/** Servers started and not yet stopped: stopped on the way out, whatever the way. */
const running = new Set<ChildProcess>();

/** Starts the server as `npm start` does (building first when sources changed), in its own process group. */
async function startServer(env: NodeJS.ProcessEnv): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  running.add(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      running.delete(child);
      throw new Error(`the server exited with code ${child.exitCode}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/siteinfo.v2`);
      if (res.ok) return { baseUrl, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stopServer(child);
  throw new Error('the server did not start within 10 minutes');
}

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // the group is gone
  }
};

/** Stops the server's whole process group (npm, node main.js, its workers) and waits for npm to exit. */
async function stopServer(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  // npm is gone; anything left in its group (a worker slow to exit) goes too.
  signalGroup(child, 'SIGKILL');
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) signalGroup(child, 'SIGKILL');
    process.exit(130);
  });
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

/** The rows' load before the first is measured, unrecorded (--settle; settleLoad says why). */
async function settle(label: string, ctx: BenchContext, rows: Measurement[], seconds: number): Promise<void> {
  if (seconds > 0) process.stderr.write(`${label}: every row's load for ${seconds} s, not recorded (--settle)...\n`);
  await settleLoad(
    rows.filter((m): m is HttpMeasurement => m.kind === 'http'),
    ctx,
    seconds,
  );
}

/** One request of each kind the rows make (every path, as each viewer), so that "idle" means warmed up. */
async function warmUp(ctx: BenchContext, rows: HttpMeasurement[]): Promise<void> {
  for (const m of rows) {
    const res = await fetch(`${ctx.baseUrl}${m.path(ctx)()}`, { headers: requestHeaders(m, ctx) });
    await res.arrayBuffer();
  }
}

interface ServerRun {
  results: MeasurementResult[];
  memory: string;
  processes: ProcessMemory[];
  /** What the ceiling answered with, beside what the forum did. */
  ceiling?: string;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/**
 * The bare Fastify ceiling: the kept page's answer fetched once from the forum (body as encoded on the wire, every
 * header), then served from memory by a Fastify server in a process of its own and measured as the kept page's row is.
 */
async function measureCeiling(
  ctx: BenchContext,
  o: BenchOptions,
  database: DatabaseName,
): Promise<{ result: MeasurementResult; note: string }> {
  const kept = MEASUREMENTS.find((m): m is HttpMeasurement => m.kind === 'http' && m.name === ROW.keptPage)!;
  const headers = requestHeaders(kept, ctx);
  const answer = await fetchRaw(`${ctx.baseUrl}${kept.path(ctx)()}`, headers);
  const { baseUrl, child } = await startCeiling(answer);
  running.add(child);
  try {
    const echo = await fetchRaw(`${baseUrl}${kept.path(ctx)()}`, headers);
    const result = await runMeasurement(
      { ...kept, name: ROW.ceiling, targets: [] },
      { ...ctx, baseUrl },
      {
        seconds: o.seconds,
        warmupSeconds: o.warmupSeconds,
        database,
      },
    );
    const encoding = answer.headers['content-encoding'] ?? 'identity';
    const note =
      `The ceiling answered with the kept page's ${kb(answer.body.length)} (${String(encoding)}) and ` +
      `${echo.headBytes} bytes of status line and headers (the forum's: ${answer.headBytes}).`;
    return { result, note };
  } finally {
    await stopServer(child);
  }
}

/**
 * Starts one server, notes its memory idle, measures `rows` while sampling its memory, then (`ceiling`) the bare
 * Fastify ceiling, and stops it. `beside`: a row measured before the first row and after each (not a row of the
 * table): each row's result carries the two measured around it, which its targets compare it with.
 */
async function measureOnServer(
  label: string,
  env: NodeJS.ProcessEnv,
  rows: Measurement[],
  threadIds: number[],
  o: BenchOptions,
  database: DatabaseName,
  extra: { ceiling?: boolean; beside?: HttpMeasurement; afterLoad?: (ctx: BenchContext) => Promise<void> } = {},
): Promise<ServerRun> {
  const { baseUrl, child } = await startServer(env);
  const results: MeasurementResult[] = [];
  try {
    const ctx: BenchContext = { baseUrl, threadIds, memberToken: await signInDemoMember(baseUrl) };
    const memory = new ServerMemory(child.pid!);
    await warmUp(
      ctx,
      rows.filter((m): m is HttpMeasurement => m.kind === 'http'),
    );
    memory.idle();
    memory.start();
    const times = { seconds: o.seconds, warmupSeconds: o.warmupSeconds, database };
    const beside = extra.beside;
    await settle(label, ctx, [...(beside ? [beside] : []), ...rows], o.settleSeconds);
    const measureBeside = async () => {
      if (!beside) return undefined;
      process.stderr.write(`${label}: ${beside.name} (beside the rows)...\n`);
      return (await runMeasurement(beside, ctx, times)).rate;
    };
    try {
      let before = await measureBeside();
      for (const m of rows) {
        process.stderr.write(`${label}: ${m.name}...\n`);
        const result = await runMeasurement(m, ctx, times);
        const after = await measureBeside();
        if (beside && before !== undefined && after !== undefined) {
          result.beside = { name: beside.name, rates: [before, after] };
        }
        results.push(result);
        before = after;
      }
    } finally {
      memory.stop();
    }
    let ceiling: string | undefined;
    if (extra.ceiling) {
      process.stderr.write(`${label}: ${ROW.ceiling}...\n`);
      const measured = await measureCeiling(ctx, o, database);
      results.push(measured.result);
      ceiling = measured.note;
    }
    await extra.afterLoad?.(ctx);
    const processes = memory.results();
    return { results, processes, ceiling, memory: memoryTable(`Memory of the server processes: ${label}`, processes) };
  } finally {
    await stopServer(child);
  }
}

const machine = () =>
  `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(
    os.totalmem() / 2 ** 30,
  )} GiB, Node ${process.version}`;
// The machine may be shared: the load before a part says how much of it the measurement had.
const loadLine = () => `${machine()}; load average ${os.loadavg()[0]!.toFixed(1)} before`;

/**
 * One database at one worker count: the rows' table, a memory table per server start, and the browser's tables;
 * and what the targets table needs.
 */
async function benchOne(
  dbName: DatabaseName,
  workers: number,
  o: BenchOptions,
  forum: BenchForum,
  withBrowser: boolean,
): Promise<{ parts: string[]; targets: TargetInput }> {
  const { threadIds } = forum;
  const where =
    dbName === 'sqlite' ? `SQLite (${o.dataDir})` : `PostgreSQL (${new URL(o.databaseUrl).pathname.slice(1)})`;
  const setting = `WORKERS=${workers}`;
  const chosen = MEASUREMENTS.filter(
    (m) => o.only.length === 0 || o.only.some((part) => m.name.toLowerCase().includes(part)),
  );
  const uncached = chosen.filter((m) => m.kind === 'http' && m.withoutGuestCache);
  const cached = chosen.filter((m) => !uncached.includes(m));
  // The ceiling is measured when a row compared with it is.
  const ceiling = cached.some((m) => m.name === ROW.keptPage || m.name === ROW.memberList);
  const env = { ...envFor(dbName, o), WORKERS: String(workers) };
  const load = loadLine();
  const parts: string[] = [];
  let browser: string | undefined;
  let browserReport: BrowserReport | undefined;
  const runs: ServerRun[] = [];
  if (cached.length > 0 || withBrowser) {
    runs.push(
      await measureOnServer(`${dbName}, ${setting}`, env, cached, threadIds, o, dbName, {
        ceiling,
        afterLoad: async (ctx) => {
          if (!withBrowser) return;
          process.stderr.write(`${dbName}, ${setting}: page loads in Chromium...\n`);
          const browserLoad = loadLine();
          const report = await runBrowserBench({
            baseUrl: ctx.baseUrl,
            threadId: threadIds[0]!,
            memberToken: ctx.memberToken,
            loads: BROWSER_LOADS,
            executablePath: CHROMIUM,
          });
          browserReport = report;
          browser = `${browserLoad}\n\n${browserTables(`Browser, ${where}, ${setting}`, report, BROWSER_LOADS)}`;
        },
      }),
    );
  }
  if (uncached.length > 0) {
    const label = `${dbName}, ${setting}, GUEST_CACHE_MS=0`;
    // Every row of this server is compared with the member's thread.list: measured beside each (bench-targets.ts).
    const memberList = MEASUREMENTS.find((m): m is HttpMeasurement => m.kind === 'http' && m.name === ROW.memberList);
    runs.push(
      await measureOnServer(label, { ...env, GUEST_CACHE_MS: '0' }, uncached, threadIds, o, dbName, {
        beside: memberList,
      }),
    );
  }
  // The ceiling, in no list, comes last.
  const order = (r: MeasurementResult) => {
    const i = MEASUREMENTS.findIndex((m) => m.name === r.name);
    return i < 0 ? MEASUREMENTS.length : i;
  };
  const results = runs.flatMap((r) => r.results).sort((a, b) => order(a) - order(b));
  if (results.length > 0) {
    parts.push(
      `${load}\n\n` +
        resultTable(
          `${where}, ${setting}: ${forum.threads.toLocaleString('en')} threads, ` +
            `${forum.posts.toLocaleString('en')} posts (first posts included); ` +
            `${o.seconds} s per row after ${o.warmupSeconds} s of warm-up`,
          results,
        ) +
        runs.map((r) => (r.ceiling ? `\n\n${r.ceiling}` : '')).join(''),
    );
  }
  parts.push(...runs.map((r) => r.memory));
  if (browser) parts.push(browser);
  const loads = runs.flatMap((r) => r.processes).map((p) => p.load ?? 0);
  const memoryPeak = loads.length > 0 ? Math.max(...loads) : undefined;
  return { parts, targets: { results, memoryPeak, browser: browserReport } };
}

/** The targets table of one database: one block of rows per worker count. */
function databaseTargets(title: string, runs: { workers: number; input: TargetInput }[]): string {
  const rows: TargetRow[] = runs.flatMap(({ workers, input }) =>
    evaluateIssueTargets(input).map((row) =>
      runs.length > 1 ? { ...row, target: `WORKERS=${workers}: ${row.target}` } : row,
    ),
  );
  return targetsTable(title, rows);
}

async function main(): Promise<void> {
  if (process.argv.includes('--import')) {
    await runImportBench(process.argv.slice(2));
    return;
  }
  const o = parseBenchArgs(process.argv.slice(2));
  const parts: string[] = [];
  // The render from data, in this process on a forum of its own, before any server loads the machine; the same for
  // every database (its reads are what differ, measured by the rows).
  let render: RenderBenchResult | undefined;
  if (o.only.length === 0 || o.only.some((part) => 'in-process render'.includes(part))) {
    process.stderr.write(`render of a ${RENDER_POSTS}-post thread page, in process...\n`);
    const renderLoad = loadLine();
    render = await runRenderBench();
    const line =
      `${renderLoad}\n\nA thread page of ${RENDER_POSTS} replies rendered in process, median of ${render.renders} ` +
      `renders, ms of CPU: ${render.fromDataMs.toFixed(2)} from data, its reads ${render.loadersMs.toFixed(2)} more ` +
      `(${render.totalMs.toFixed(2)} in all); ${(Buffer.byteLength(render.html) / 1000).toFixed(1)} kB of HTML.`;
    parts.push(line);
    console.log(`\n${line}\n`);
  }
  for (const dbName of o.dbs) {
    const forum = await prepareForum(dbName, o);
    const targets: { workers: number; input: TargetInput }[] = [];
    const print = (part: string) => {
      parts.push(part);
      console.log(`\n${part}\n`);
    };
    for (const [i, workers] of o.workers.entries()) {
      const one = await benchOne(dbName, workers, o, forum, o.browser && i === 0);
      one.parts.forEach(print);
      targets.push({ workers, input: { ...one.targets, render } });
    }
    const name = dbName === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    print(databaseTargets(`Targets, ${name} (issue 25; every ratio within this run)`, targets));
  }
  if (o.out) fs.writeFileSync(o.out, parts.join('\n\n') + '\n');
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    await Promise.all([...running].map(stopServer));
    process.exit(1);
  },
);
