import { parseArgs } from 'node:util';
import { ConfigError } from '../config.js';
import { DEMO_PASSWORD, type DemoSeedOptions } from './demo-seeder.js';
import { openForumDatabase, seedWithProgress } from './forum-database.js';

/**
 * `npm run seed:demo -- --threads N --posts M`: fills the configured forum (DATA_DIR's SQLite file, or DATABASE_URL)
 * with demo content. Migrates and seeds the defaults first, so an empty DATA_DIR works.
 */

const USAGE = `Usage: npm run seed:demo -- [--threads N] [--posts M] [--users U] [--days D] [--batch B] [--seed S]
  --threads  threads to add (default 1000)
  --posts    replies and comments to add, spread over the new threads (default 10 per thread)
  --users    demo user pool, created once and reused (default 200)
  --days     spread the new threads over the last D days (default 365)
  --batch    threads per transaction (default 1000)
  --seed     random seed (default: derived from the forum's size, so each run differs)
The database is the server's: DATA_DIR (SQLite) or DATABASE_URL / DATABASE_SCHEMA (PostgreSQL).`;

function positive(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`--${name} must be an integer of at least ${min}`);
  return n;
}

function parseSeedArgs(args: string[]): DemoSeedOptions {
  const { values } = parseArgs({
    args,
    options: {
      threads: { type: 'string' },
      posts: { type: 'string' },
      users: { type: 'string' },
      days: { type: 'string' },
      batch: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const threads = positive('threads', values.threads, 1000);
  return {
    threads,
    posts: positive('posts', values.posts, threads * 10, 0),
    users: positive('users', values.users, 200, 2),
    days: positive('days', values.days, 365),
    batch: positive('batch', values.batch, 1000),
    seed: values.seed === undefined ? undefined : positive('seed', values.seed, 0, 0),
  };
}

async function main(): Promise<void> {
  const options = parseSeedArgs(process.argv.slice(2));
  const database = await openForumDatabase();
  try {
    const result = await seedWithProgress(database, options);
    console.log(
      `Added ${result.threads} threads (ids ${result.firstThreadId}-${result.lastThreadId}) and ${result.posts} ` +
        `replies and comments in ${result.seconds.toFixed(1)} s. Demo users sign in with the password "${DEMO_PASSWORD}".`,
    );
  } finally {
    await database.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
