import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CamelCasePlugin,
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  SqliteDialect,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { DB } from './schema.js';
import * as foundation from './migrations/2026112101-foundation.js';
import * as forum from './migrations/2026112102-forum.js';
import * as admin from './migrations/2026112103-admin.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** The PostgreSQL schema in use, when one was configured. */
  schema: string | undefined;
  destroy(): Promise<void>;
}

/** Every migration, in order. Static imports keep them in the build; names are immutable once on main. */
const MIGRATIONS: Record<string, Migration> = {
  '2026112101-foundation': foundation,
  '2026112102-forum': forum,
  '2026112103-admin': admin,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

// COUNT(*) and other int8 values arrive as strings from pg; every count we keep fits a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
): Promise<Database> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    if (schema) {
      // Make sure the schema exists before the pool starts using it as its search_path.
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query(`create schema if not exists "${schema}"`);
      } finally {
        await client.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path="${schema}"` } : {}),
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
    return { db, dialect: 'postgres', schema, destroy: () => db.destroy() };
  }

  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'luntan.sqlite');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  });
  return { db, dialect: 'sqlite', schema: undefined, destroy: () => db.destroy() };
}

/** Runs every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  // With a schema, the migrator's own tables live in it too (its table check otherwise sees other schemas').
  const migrator = new Migrator({
    db: database.db,
    provider,
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const where = failed ? ` (migration ${failed.migrationName})` : '';
    throw new Error(`Database migration failed${where}: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
