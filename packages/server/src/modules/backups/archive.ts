import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import * as tar from 'tar';
import type { Database, DialectName } from '../../db/database.js';
import { PRIVATE_PREFIX, PUBLIC_PREFIX, type StorageSettings } from '../../core/storage/index.js';

/*
 * One backup archive (docs/operations.md, "Backups"): a gzip'd tar holding
 *   manifest.json      what it is: format, the forum's version, the database's kind and last migration, counts
 *   database.sqlite    SQLite: the database as one consistent snapshot (better-sqlite3's online backup)
 *   database.dump      PostgreSQL: pg_dump's custom format of the forum's schema, taken in the snapshot the counts read
 *   uploads/, files/   the files the forum keeps on disk (with object storage they stay in the bucket: the manifest
 *                      says so)
 * The counts and the wallets' sum are read from the same snapshot as the database in the archive, so a restore can
 * compare what it restored with them.
 */

export const ARCHIVE_FORMAT = 'luntan-backup';
export const ARCHIVE_FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
const SQLITE_FILE = 'database.sqlite';
const PG_FILE = 'database.dump';
/** The folders of DATA_DIR an archive carries (core/storage: the keys' two halves). */
const FILE_FOLDERS = [PUBLIC_PREFIX.slice(0, -1), PRIVATE_PREFIX.slice(0, -1)];

const run = promisify(execFile);

export interface ForumCounts {
  users: number;
  threads: number;
  posts: number;
  /** available + frozen of every wallet, in cents. */
  walletCents: number;
}

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  /** The server package's version that made it. */
  forumVersion: string;
  createdAt: string;
  name: string;
  database: {
    kind: DialectName;
    file: string;
    bytes: number;
    sha256: string;
    /** The newest migration the database had. */
    migration: string | null;
    /** PostgreSQL: the schema dumped ('public' when none was configured). */
    schema?: string;
  };
  counts: ForumCounts;
  /** The wallets' sum as the forum writes money: "1234.56". */
  walletSum: string;
  files: { where: 'archive'; count: number; bytes: number } | { where: 'bucket'; bucket: string; note: string };
}

/** A refusal the commands and the back office show as it is (a damaged archive, a non-empty target...). */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly reason:
      | 'busy'
      | 'damaged'
      | 'foreign'
      | 'kind'
      | 'not-empty'
      | 'tool-missing'
      | 'tool-failed'
      | 'not-found' = 'tool-failed',
  ) {
    super(message);
    this.name = 'BackupError';
  }
}

export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The archive's file name: when it was made (UTC) and a few random characters. */
export function archiveName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `luntan-backup-${stamp}-${randomBytes(3).toString('hex')}.tar.gz`;
}

/** What the counts read: the same statements on both databases. */
const COUNTS_SQL = {
  users: 'select count(*) as n from users',
  threads: 'select count(*) as n from threads',
  posts: 'select count(*) as n from posts',
  walletCents: 'select coalesce(sum(available_cents + frozen_cents), 0) as n from wallets',
} as const;
const MIGRATION_SQL = 'select name from kysely_migration order by name desc limit 1';

function countsOfSqlite(file: string): { counts: ForumCounts; migration: string | null } {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const n = (q: string) => Number((db.prepare(q).get() as { n: number | bigint }).n);
    const migration = (db.prepare(MIGRATION_SQL).get() as { name: string } | undefined)?.name ?? null;
    return {
      counts: {
        users: n(COUNTS_SQL.users),
        threads: n(COUNTS_SQL.threads),
        posts: n(COUNTS_SQL.posts),
        walletCents: n(COUNTS_SQL.walletCents),
      },
      migration,
    };
  } finally {
    db.close();
  }
}

async function countsOfPostgres(client: pg.PoolClient): Promise<{ counts: ForumCounts; migration: string | null }> {
  const n = async (q: string) => Number((await client.query<{ n: string | number }>(q)).rows[0]!.n);
  const migration = (await client.query<{ name: string }>(MIGRATION_SQL)).rows[0]?.name ?? null;
  return {
    counts: {
      users: await n(COUNTS_SQL.users),
      threads: await n(COUNTS_SQL.threads),
      posts: await n(COUNTS_SQL.posts),
      walletCents: await n(COUNTS_SQL.walletCents),
    },
    migration,
  };
}

/** Counts of a live database (after a restore), read as the archive's were. */
export async function countForum(database: Database): Promise<ForumCounts> {
  if (database.handle.kind === 'sqlite') {
    const db = database.handle.sqlite;
    const n = (q: string) => Number((db.prepare(q).get() as { n: number | bigint }).n);
    return {
      users: n(COUNTS_SQL.users),
      threads: n(COUNTS_SQL.threads),
      posts: n(COUNTS_SQL.posts),
      walletCents: n(COUNTS_SQL.walletCents),
    };
  }
  const client = await database.handle.pool.connect();
  try {
    return (await countsOfPostgres(client)).counts;
  } finally {
    client.release();
  }
}

/** Pages copied per step of SQLite's online backup; the whole rest at once once a writer made it start over. */
const SQLITE_PAGES_PER_STEP = 2000;

/**
 * SQLite's online backup of the forum's connection into `file`. Each step copies some pages and lets the event loop
 * run (this process's writes go into the copy as they happen); a write by another process makes SQLite start the
 * copy over, and then the rest is copied in one step, so that writers elsewhere cannot keep it from ending.
 */
async function snapshotSqlite(sqlite: SqliteDatabase.Database, file: string): Promise<void> {
  let lastRemaining = Number.POSITIVE_INFINITY;
  let allAtOnce = false;
  await sqlite.backup(file, {
    progress: ({ totalPages, remainingPages }) => {
      if (remainingPages > lastRemaining) allAtOnce = true;
      lastRemaining = remainingPages;
      return allAtOnce ? totalPages : SQLITE_PAGES_PER_STEP;
    },
  });
}

function toolMissing(tool: string): BackupError {
  return new BackupError(
    `${tool} was not found: backups of a PostgreSQL forum need PostgreSQL's client tools ` +
      "(Debian and Ubuntu: apt-get install postgresql-client; their major version at least the server's).",
    'tool-missing',
  );
}

async function runTool(tool: string, args: string[]): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') throw toolMissing(tool);
    const said = (err.stderr ?? '').trim().split('\n').slice(-5).join('\n');
    throw new BackupError(`${tool} failed: ${said || err.message}`, 'tool-failed');
  }
}

/** The schema a PostgreSQL forum lives in. */
export function schemaOf(database: Pick<Database, 'schema'>): string {
  return database.schema ?? 'public';
}

/**
 * pg_dump of the forum's schema in a snapshot exported by a read-only repeatable-read transaction, which the counts
 * read too: the dump and the manifest's counts are the same moment of the database.
 */
async function snapshotPostgres(
  database: Database,
  databaseUrl: string,
  file: string,
): Promise<{ counts: ForumCounts; migration: string | null }> {
  if (database.handle.kind !== 'postgres') throw new Error('not a PostgreSQL forum');
  const client = await database.handle.pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const read = await countsOfPostgres(client);
    await runTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--schema=${schemaOf(database)}`,
      `--snapshot=${snapshot}`,
      `--file=${file}`,
      `--dbname=${databaseUrl}`,
    ]);
    await client.query('commit');
    return read;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under `root` (recursively): how many and how large. */
async function measureFolder(root: string): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  let entries: string[];
  try {
    entries = await fs.readdir(root, { recursive: true });
  } catch {
    return { count, bytes };
  }
  for (const entry of entries) {
    const stat = await fs.stat(path.join(root, entry)).catch(() => null);
    if (stat?.isFile()) {
      count += 1;
      bytes += stat.size;
    }
  }
  return { count, bytes };
}

export interface MakeArchiveInput {
  database: Database;
  /** DATABASE_URL (PostgreSQL: what pg_dump connects with). */
  databaseUrl: string | undefined;
  dataDir: string;
  storage: StorageSettings;
  forumVersion: string;
  /** Where the archive is written. */
  outDir: string;
  name: string;
  /** Called now and then while it works (the running row's heartbeat). */
  alive?: () => Promise<void>;
}

/**
 * Writes one archive into `outDir` (as `name`, complete or not at all: it is written under a temporary name and
 * renamed once whole). Answers its path, size and manifest.
 */
export async function makeArchive(
  input: MakeArchiveInput,
): Promise<{ file: string; bytes: number; manifest: BackupManifest }> {
  const { database } = input;
  await fs.mkdir(input.outDir, { recursive: true });
  const staging = path.join(input.outDir, `.${input.name}.staging`);
  const partial = path.join(input.outDir, `.${input.name}.part`);
  const file = path.join(input.outDir, input.name);
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(staging);
  const beat = setInterval(() => void input.alive?.().catch(() => undefined), 10_000);
  try {
    const dbFile = path.join(staging, database.dialect === 'sqlite' ? SQLITE_FILE : PG_FILE);
    let read: { counts: ForumCounts; migration: string | null };
    if (database.handle.kind === 'sqlite') {
      await snapshotSqlite(database.handle.sqlite, dbFile);
      read = countsOfSqlite(dbFile);
    } else {
      if (!input.databaseUrl) throw new Error('DATABASE_URL is needed to dump a PostgreSQL forum');
      read = await snapshotPostgres(database, input.databaseUrl, dbFile);
    }
    const entries = [MANIFEST, path.basename(dbFile)];
    let files: BackupManifest['files'];
    if (input.storage.kind === 's3') {
      files = {
        where: 'bucket',
        bucket: input.storage.bucket,
        note: 'The files stay in the object storage bucket (STORAGE_URL); this archive holds the database only.',
      };
    } else {
      let count = 0;
      let bytes = 0;
      for (const folder of FILE_FOLDERS) {
        const source = path.join(input.dataDir, folder);
        const measured = await measureFolder(source);
        if (measured.count === 0) continue;
        count += measured.count;
        bytes += measured.bytes;
        // Packed through a link to the folder (tar follows it): the archive holds the files under uploads/, files/.
        await fs.symlink(source, path.join(staging, folder), 'dir');
        entries.push(folder);
      }
      files = { where: 'archive', count, bytes };
    }
    const dbStat = await fs.stat(dbFile);
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      forumVersion: input.forumVersion,
      createdAt: new Date().toISOString(),
      name: input.name,
      database: {
        kind: database.dialect,
        file: path.basename(dbFile),
        bytes: dbStat.size,
        sha256: await sha256Of(dbFile),
        migration: read.migration,
        ...(database.dialect === 'postgres' ? { schema: schemaOf(database) } : {}),
      },
      counts: read.counts,
      walletSum: centsText(read.counts.walletCents),
      files,
    };
    await fs.writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await input.alive?.();
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true, follow: true }, entries);
    await fs.rename(partial, file);
    const { size } = await fs.stat(file);
    return { file, bytes: size, manifest };
  } finally {
    clearInterval(beat);
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(partial, { force: true });
  }
}

/**
 * Reads an archive through once (so a damaged one is found before anything is written): its manifest, and the names
 * it holds.
 */
export async function readArchive(file: string): Promise<{ manifest: BackupManifest; entries: string[] }> {
  try {
    await fs.access(file);
  } catch {
    throw new BackupError(`There is no archive at ${file}.`, 'not-found');
  }
  let manifestText: string | null = null;
  const entries: string[] = [];
  try {
    await tar.list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        entries.push(entry.path);
        if (entry.path === MANIFEST) {
          const chunks: Buffer[] = [];
          entry.on('data', (c: Buffer) => chunks.push(c));
          entry.on('end', () => (manifestText = Buffer.concat(chunks).toString('utf8')));
        } else {
          entry.resume();
        }
      },
    });
  } catch (error) {
    throw new BackupError(`${path.basename(file)} is damaged or not a tar.gz archive: ${String(error)}`, 'damaged');
  }
  let manifest: BackupManifest | null = null;
  try {
    manifest = manifestText ? (JSON.parse(manifestText) as BackupManifest) : null;
  } catch {
    manifest = null;
  }
  if (!manifest || manifest.format !== ARCHIVE_FORMAT || typeof manifest.database?.file !== 'string') {
    throw new BackupError(`${path.basename(file)} is not a Luntan backup (it has no Luntan manifest.json).`, 'foreign');
  }
  if (manifest.formatVersion > ARCHIVE_FORMAT_VERSION) {
    throw new BackupError(
      `${path.basename(file)} was made by a newer Luntan (archive format ${manifest.formatVersion}); upgrade first.`,
      'foreign',
    );
  }
  if (!entries.includes(manifest.database.file)) {
    throw new BackupError(`${path.basename(file)} is damaged: it has no ${manifest.database.file}.`, 'damaged');
  }
  return { manifest, entries };
}

export interface RestoreTarget {
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  dataDir: string;
}

async function hasFiles(dir: string): Promise<boolean> {
  return (await measureFolder(dir)).count > 0;
}

/** Whether SQLite's file holds any table. */
function sqliteHasTables(file: string): boolean {
  let db: SqliteDatabase.Database | null = null;
  try {
    db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    const row = db.prepare("select count(*) as n from sqlite_master where type = 'table'").get() as { n: number };
    return Number(row.n) > 0;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

async function withPgClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function tablesIn(client: pg.Client, schema: string): Promise<number> {
  const result = await client.query<{ n: string }>('select count(*) as n from pg_tables where schemaname = $1', [
    schema,
  ]);
  return Number(result.rows[0]!.n);
}

async function schemaExists(client: pg.Client, schema: string): Promise<boolean> {
  const result = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
  return (result.rowCount ?? 0) > 0;
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Whether the target already holds a forum: its database has tables, or its files folders have files. */
export async function targetIsEmpty(target: RestoreTarget, storage: StorageSettings): Promise<boolean> {
  if (storage.kind === 'disk') {
    for (const folder of FILE_FOLDERS) if (await hasFiles(path.join(target.dataDir, folder))) return false;
  }
  if (target.databaseUrl) {
    const schema = target.databaseSchema ?? 'public';
    return withPgClient(target.databaseUrl, async (client) => (await tablesIn(client, schema)) === 0);
  }
  return !sqliteHasTables(path.join(target.dataDir, 'luntan.sqlite'));
}

/**
 * Puts the archive's database and files in place (the target was checked by the caller: empty, or --force). Extracts
 * into a folder beside the data first and checks the database's checksum there: a damaged archive writes nothing.
 * The database is not migrated here (the caller opens it and migrates it forward).
 */
export async function unpackArchive(
  file: string,
  manifest: BackupManifest,
  target: RestoreTarget,
  options: { force: boolean; moveFiles: (folder: string) => Promise<number> },
): Promise<{ files: number }> {
  await fs.mkdir(target.dataDir, { recursive: true });
  const staging = path.join(target.dataDir, `.restore-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(staging);
  try {
    try {
      await tar.extract({ file, cwd: staging, strict: true });
    } catch (error) {
      throw new BackupError(`${path.basename(file)} is damaged: ${String(error)}`, 'damaged');
    }
    const dbFile = path.join(staging, manifest.database.file);
    if ((await sha256Of(dbFile)) !== manifest.database.sha256) {
      throw new BackupError(
        `${path.basename(file)} is damaged: its ${manifest.database.file} does not match the manifest's checksum.`,
        'damaged',
      );
    }
    if (manifest.database.kind === 'sqlite') {
      const live = path.join(target.dataDir, 'luntan.sqlite');
      for (const suffix of ['', '-wal', '-shm', '-journal']) await fs.rm(live + suffix, { force: true });
      await fs.rename(dbFile, live);
    } else {
      await restorePostgres(dbFile, manifest.database.schema ?? 'public', target, options.force);
    }
    return { files: await options.moveFiles(staging) };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function restorePostgres(dbFile: string, from: string, target: RestoreTarget, force: boolean): Promise<void> {
  const databaseUrl = target.databaseUrl!;
  const to = target.databaseSchema ?? 'public';
  await withPgClient(databaseUrl, async (client) => {
    if (force && (await schemaExists(client, to))) {
      await client.query(`drop schema ${quoteId(to)} cascade`);
    }
    if (from !== to && (await schemaExists(client, from))) {
      if ((await tablesIn(client, from)) > 0) {
        throw new BackupError(
          `The archive's schema "${from}" exists in the target database and holds tables: restore into another ` +
            'database, or into DATABASE_SCHEMA=' +
            from +
            '.',
          'not-empty',
        );
      }
      await client.query(`drop schema ${quoteId(from)} cascade`);
    }
    // The dump creates its schema itself; an empty one of that name (public on a fresh database) is dropped first.
    if (await schemaExists(client, to)) await client.query(`drop schema ${quoteId(to)} cascade`);
    // pg_trgm, which the search indexes use, lives outside the forum's schema (db/database.ts).
    await client.query('create schema if not exists luntan_extensions');
    await client.query('create extension if not exists pg_trgm schema luntan_extensions');
  });
  await runTool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${databaseUrl}`,
    dbFile,
  ]);
  if (from !== to) {
    await withPgClient(databaseUrl, (client) => client.query(`alter schema ${quoteId(from)} rename to ${quoteId(to)}`));
  }
}
