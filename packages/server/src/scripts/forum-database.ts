import cliProgress from 'cli-progress';
import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase, type Database } from '../db/database.js';
import { seed } from '../seed.js';
import { seedDemo, type DemoSeedOptions, type DemoSeedResult } from './demo-seeder.js';

/** Seeds with a progress bar on stderr (on a terminal; elsewhere a line every ten seconds). */
export async function seedWithProgress(database: Database, options: DemoSeedOptions): Promise<DemoSeedResult> {
  const bar = new cliProgress.SingleBar(
    {
      format:
        'seeding |{bar}| {percentage}% | {threads} threads, {posts} posts | {duration_formatted} (ETA {eta_formatted})',
      etaBuffer: 20,
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 10_000,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(options.threads + options.posts, 0, { threads: 0, posts: 0 });
  try {
    return await seedDemo(database.db, database.dialect, options, (p) =>
      bar.update(p.threads + p.posts, { threads: p.threads, posts: p.posts }),
    );
  } finally {
    bar.stop();
  }
}

/** Opens the configured database, migrated forward, with the defaults (groups, settings, administrator) in place. */
export async function openForumDatabase(env: NodeJS.ProcessEnv = process.env): Promise<Database> {
  const config = loadConfig(env);
  const database = await openDatabase(config);
  await migrateToLatest(database);
  const seeded = await seed(database.db, {
    ...(config.adminUsername ? { adminUsername: config.adminUsername } : {}),
    ...(config.adminPassword ? { adminPassword: config.adminPassword } : {}),
  });
  if (seeded.admin?.password) {
    console.log(`Administrator "${seeded.admin.username}" created with the password ${seeded.admin.password}`);
  }
  return database;
}
