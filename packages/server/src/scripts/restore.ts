import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { BackupError, restoreForum, type ForumCounts } from '../modules/backups/index.js';

/** `npm run restore -- FILE [--force]`: fills an empty DATA_DIR or database from an archive. docs/operations.md. */
const USAGE = `Usage: npm run restore -- FILE [--force]

  FILE      an archive made by npm run backup or the back office (luntan-backup-….tar.gz)
  --force   replace the forum already in DATA_DIR or the database (otherwise refused)

Restores into DATA_DIR (SQLite) or DATABASE_URL / DATABASE_SCHEMA (PostgreSQL, the archive's kind), puts the files in
DATA_DIR (or the bucket of STORAGE_URL), migrates the database forward and prints the manifest's counts beside what
was restored. Stop the forum on the target first. PostgreSQL needs pg_restore (apt-get install postgresql-client).`;

const ROWS: [keyof ForumCounts, string][] = [
  ['users', 'users'],
  ['threads', 'threads'],
  ['posts', 'posts'],
  ['walletCents', 'wallets (sum, cents)'],
];

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig(process.env);
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  const result = await restoreForum(file, config, { force: values.force ?? false });
  const m = result.manifest;
  console.log(`Restored ${path.basename(file)} (made ${m.createdAt} by Luntan ${m.forumVersion}, ${m.database.kind})`);
  if (result.migrated.length > 0) console.log(`Migrated forward: ${result.migrated.join(', ')}`);
  const width = Math.max(...ROWS.map(([, label]) => label.length));
  console.log(`${''.padEnd(width)}  ${'archive'.padStart(12)}  ${'restored'.padStart(12)}`);
  let same = true;
  for (const [key, label] of ROWS) {
    const a = m.counts[key];
    const b = result.restored[key];
    if (a !== b) same = false;
    console.log(
      `${label.padEnd(width)}  ${String(a).padStart(12)}  ${String(b).padStart(12)}${a === b ? '' : '  differs'}`,
    );
  }
  console.log(
    m.files.where === 'archive'
      ? `files: ${m.files.count} in the archive, ${result.files} put in place`
      : `files: left in the bucket ${m.files.bucket} (the archive holds the database only)`,
  );
  if (!same) {
    console.error('Some counts differ from the manifest: see above.');
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof BackupError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(`restore failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
