import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ImportReport } from '../scripts/discuzq/importer.js';
import { importDiscuzq, type ImportDiscuzqInput } from '../scripts/discuzq/run.js';
import type { TestServer } from './harness.js';

/** The real database a fresh Discuz! Q v3.0.220113 install creates (a copy of ../shared/dzq's, kept in the repo). */
export const DZQ_INSTALL_SQL = path.resolve(import.meta.dirname, '../../test-data/discuzq-v3.0.220113-install.sql');

/** Imports a dump file (or a mysql:// address) into the test server's forum. */
export async function importInto(
  t: TestServer,
  from: string,
  options: Partial<Omit<ImportDiscuzqInput, 'from'>> = {},
): Promise<ImportReport> {
  return importDiscuzq(
    { db: t.app.ctx.db, dialect: process.env.DATABASE_URL ? 'postgres' : 'sqlite' },
    {
      from,
      prefix: '',
      storageDir: null,
      appKey: null,
      timezoneOffset: 480,
      dryRun: false,
      force: false,
      files: t.app.ctx.files,
      ...options,
    },
  );
}

/** A dump of a fresh install plus `extraSql` (INSERT statements of the rows a test needs), in a temp file. */
export async function installDumpWith(extraSql: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dzq-dump-'));
  const file = path.join(dir, 'site.sql');
  await fs.writeFile(file, `${await fs.readFile(DZQ_INSTALL_SQL, 'utf8')}\n${extraSql}\n`);
  return file;
}
