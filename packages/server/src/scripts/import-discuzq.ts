import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openFileStore } from '../core/storage/index.js';
import { ImportRefused } from './discuzq/importer.js';
import { importDiscuzq, printReport, type ImportDiscuzqInput } from './discuzq/run.js';
import { SourceError } from './discuzq/source.js';
import { parseOffset } from './discuzq/values.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { seed } from '../seed.js';

/**
 * `npm run import:discuzq -- --from mysql://user:pass@host:3306/db | site.sql[.gz] [options]`: moves a Discuz! Q v3
 * site into the forum the environment names (DATA_DIR or DATABASE_URL, as `npm start`). docs/discuzq.md.
 */

const USAGE = `Usage: npm run import:discuzq -- --from <mysql://user:pass@host:3306/db | site.sql | site.sql.gz> [options]
  --from       the Discuz! Q v3 database: a MySQL/MariaDB address, or a mysqldump file (.sql or .sql.gz)
  --prefix     its table prefix (config/config.php database.prefix; default none)
  --storage    the old site's storage folder (…/storage), to copy its files, avatars and emoji images
  --app-key    the old site's key (config/config.php 'key'), to bring its encrypted secrets over
  --timezone   the old site's clock for its times (default +08:00, Asia/Shanghai)
  --report     where the report is written (default ./discuzq-import-report.txt, and .json beside it)
  --dry-run    read, map and check everything, write nothing
  --force      empty a forum that is not empty (or was imported into before) and import again
The forum is the server's: DATA_DIR (SQLite) or DATABASE_URL / DATABASE_SCHEMA (PostgreSQL).`;

function parse(args: string[]): ImportDiscuzqInput & { report: string } {
  const { values } = parseArgs({
    args,
    options: {
      from: { type: 'string' },
      prefix: { type: 'string', default: '' },
      storage: { type: 'string' },
      'app-key': { type: 'string' },
      timezone: { type: 'string', default: '+08:00' },
      report: { type: 'string', default: 'discuzq-import-report.txt' },
      'dry-run': { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.from) throw new ConfigError(`--from is required.\n\n${USAGE}`);
  const offset = parseOffset(values.timezone);
  if (offset === null) throw new ConfigError('--timezone must look like +08:00 or -05:30.');
  if (!/^[A-Za-z0-9_]{0,32}$/.test(values.prefix))
    throw new ConfigError('--prefix may hold letters, digits and _ only.');
  return {
    from: values.from,
    prefix: values.prefix,
    storageDir: values.storage ? path.resolve(values.storage) : null,
    appKey: values['app-key'] ?? null,
    timezoneOffset: offset,
    dryRun: values['dry-run'],
    force: values.force,
    report: path.resolve(values.report),
  };
}

async function main(): Promise<void> {
  const input = parse(process.argv.slice(2));
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  await migrateToLatest(database);
  // The defaults a fresh forum needs; its first administrator is replaced by the old site's members, so no
  // password is announced here.
  await seed(database.db, config.adminPassword ? { adminPassword: config.adminPassword } : {});
  // Files go where the server keeps them: DATA_DIR, or the bucket STORAGE_URL names.
  const files = openFileStore(config.storage, config.dataDir);
  try {
    const report = await importDiscuzq(
      database,
      { ...input, files },
      {
        bars: true,
      },
    );
    await printReport(report, input.report);
    if (!report.dryRun)
      console.log("Members sign in with their old site's passwords; its administrators administer this forum.");
  } finally {
    await files.close();
    await database.destroy();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof SourceError || err instanceof ImportRefused) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
