import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase, type Database } from '../db/database.js';

/**
 * A migrated database of the run's kind for a test file of the db floor, without a server: SQLite in a folder of its
 * own, or, with DATABASE_URL, a schema of its own (`t_<name>_<pid>`) in that PostgreSQL, dropped afterwards. Opened in
 * beforeAll and closed in afterAll; `get()` answers it inside a test or hook.
 */
export function useRunDatabase(name: string): { get(): Database } {
  let dir: string | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `luntan-${name}-`));
    const config = loadConfig({
      DATA_DIR: dir,
      ...(process.env.DATABASE_URL
        ? { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: `t_${name.replaceAll('-', '_')}_${process.pid}` }
        : {}),
    });
    database = await openDatabase(config);
    await migrateToLatest(database);
  });
  afterAll(async () => {
    if (database?.schema) await sql`drop schema if exists ${sql.id(database.schema)} cascade`.execute(database.db);
    await database?.destroy();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get: () => {
      if (!database) throw new Error('useRunDatabase(): the database opens in beforeAll; use it inside a test or hook');
      return database;
    },
  };
}
