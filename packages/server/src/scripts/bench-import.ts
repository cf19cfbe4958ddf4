import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ConfigError } from '../config.js';
import { generateBulkSql, writeDumpFile } from './discuzq/fixture.js';

/**
 * `npm run bench -- --import [--threads N] [--posts-per-thread P] [--db sqlite|postgres]`: the Discuz! Q importer's
 * speed and memory. Generates a Discuz! Q v3 dump of N threads with P posts each (100,000 × 10 = 1,000,000 posts by
 * default; reused when it exists), imports it into a fresh forum with `npm run import:discuzq` as a site owner would,
 * and reports the time, the rate and the importer's memory (resident size sampled every second: it must stay flat).
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface ImportBenchOptions {
  threads: number;
  postsPerThread: number;
  users: number;
  db: 'sqlite' | 'postgres';
  databaseUrl: string;
  dir: string;
}

function parse(args: string[]): ImportBenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      import: { type: 'boolean' },
      threads: { type: 'string', default: '100000' },
      'posts-per-thread': { type: 'string', default: '10' },
      users: { type: 'string', default: '2000' },
      db: { type: 'string' },
      'database-url': { type: 'string' },
      dir: { type: 'string', default: path.join(ROOT, 'data', 'bench-import') },
    },
    strict: false,
  });
  const n = (name: string, v: unknown) => {
    const x = Number(String(v).replace(/_/g, ''));
    if (!Number.isInteger(x) || x < 1) throw new ConfigError(`--${name} must be a positive integer`);
    return x;
  };
  const databaseUrl = String(
    values['database-url'] ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/luntan_bench_import',
  );
  const db = (values.db ?? (process.env.DATABASE_URL ? 'postgres' : 'sqlite')) as string;
  if (db !== 'sqlite' && db !== 'postgres') throw new ConfigError('--db must be sqlite or postgres');
  return {
    threads: n('threads', values.threads),
    postsPerThread: n('posts-per-thread', values['posts-per-thread']),
    users: n('users', values.users),
    db,
    databaseUrl,
    dir: path.resolve(String(values.dir)),
  };
}

async function freshPostgres(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^\w+$/.test(name)) throw new ConfigError(`not a database name: ${name}`);
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}"`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/** Resident memory of a process in MiB (Linux), or 0 when it cannot be read. */
function residentMiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

export async function runImportBench(args: string[]): Promise<void> {
  const o = parse(args);
  fs.mkdirSync(o.dir, { recursive: true });
  const dump = path.join(o.dir, `dzq-${o.threads}x${o.postsPerThread}-${o.users}.sql`);
  if (!fs.existsSync(dump)) {
    console.log(`Generating a Discuz! Q dump of ${o.threads} threads × ${o.postsPerThread} posts into ${dump}…`);
    const began = Date.now();
    await writeDumpFile(
      `${dump}.part`,
      generateBulkSql({ threads: o.threads, postsPerThread: o.postsPerThread, users: o.users }),
      false,
    );
    fs.renameSync(`${dump}.part`, dump);
    console.log(
      `  ${(fs.statSync(dump).size / 2 ** 20).toFixed(0)} MiB in ${((Date.now() - began) / 1000).toFixed(0)} s`,
    );
  }
  const dataDir = path.join(o.dir, 'forum');
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (o.db === 'postgres') await freshPostgres(o.databaseUrl);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench-admin-123',
    ...(o.db === 'postgres' ? { DATABASE_URL: o.databaseUrl } : { DATABASE_URL: '' }),
  };
  if (o.db === 'sqlite') delete env.DATABASE_URL;

  console.log(`Importing into a fresh forum on ${o.db}…`);
  const began = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=source',
      'packages/server/src/scripts/import-discuzq.ts',
      '--from',
      dump,
      '--report',
      path.join(o.dir, 'report.txt'),
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const samples: number[] = [];
  const timer = setInterval(() => {
    const mib = residentMiB(child.pid ?? 0);
    if (mib > 0) samples.push(mib);
  }, 1000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`the import exited with ${code}`);
  const seconds = (Date.now() - began) / 1000;
  const posts = o.threads * o.postsPerThread;
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  const table = [
    `| Discuz! Q import (${o.db}) | value |`,
    '|---|---|',
    `| threads / posts | ${o.threads} / ${posts} |`,
    `| time | ${(seconds / 60).toFixed(1)} min (${seconds.toFixed(0)} s; target under 10 min) |`,
    `| posts per second | ${Math.round(posts / seconds)} |`,
    `| importer memory (RSS) at 25/50/75/100 % of the run | ${at(0.25)} / ${at(0.5)} / ${at(0.75)} / ${at(0.999)} MiB |`,
    `| importer memory peak | ${Math.max(0, ...samples)} MiB |`,
  ].join('\n');
  console.log(`\n${table}\n`);
}
