import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { AppError } from '../core/errors.js';
import { openFileStore } from '../core/storage/index.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { BackupError, defaultBackupDir, runBackup } from '../modules/backups/index.js';

/**
 * `npm run backup [-- --out DIR]`: one archive of the forum (database snapshot, files, manifest) while it runs.
 * docs/operations.md.
 */
const USAGE = `Usage: npm run backup [-- --out DIR]

  --out DIR   where the archive is written (default DATA_DIR/backups)

Writes luntan-backup-<date>-<time>-<random>.tar.gz: the database as one consistent snapshot (taken while the forum
runs and writes), the files of DATA_DIR/uploads and DATA_DIR/files (with STORAGE_URL they stay in the bucket), and
manifest.json (version, database kind, counts of users, threads and posts, the wallets' sum). Prints its path.
PostgreSQL forums need pg_dump (Debian: apt-get install postgresql-client).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig(process.env);
  // npm runs scripts from the repository's root: a relative --out is the caller's.
  const outDir = values.out
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out)
    : defaultBackupDir(config.dataDir);
  const database = await openDatabase(config);
  const files = openFileStore(config.storage, config.dataDir);
  try {
    await migrateToLatest(database);
    const started = Date.now();
    const row = await runBackup({ database, config, files }, { origin: 'cli', outDir });
    const m = row.manifest!;
    console.log(
      `Backup of ${m.counts.users} users, ${m.counts.threads} threads, ${m.counts.posts} posts, ` +
        `wallets ${m.walletSum}; ` +
        (m.files.where === 'archive' ? `${m.files.count} files` : `files left in the bucket ${m.files.bucket}`) +
        ` (${(row.bytes / 1024 / 1024).toFixed(1)} MiB, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    // The last line is the archive's path alone, for scripts.
    console.log(path.join(outDir, row.name));
  } finally {
    await files.close();
    await database.destroy();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof BackupError) {
    console.error(err.message);
    process.exit(2);
  }
  if (err instanceof AppError) {
    console.error(typeof err.text === 'string' ? err.text : (err.text?.en ?? err.message));
    process.exit(2);
  }
  console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
