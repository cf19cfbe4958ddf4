import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Code, BACKUP_SCHEDULE_DEFAULTS, type BackupOrigin, type BackupSchedule } from '@luntan/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { AppError, notFound } from '../../core/errors.js';
import type { FileStore } from '../../core/storage/index.js';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { readSettings, writeSetting } from '../settings/index.js';
import { archiveName, makeArchive, type BackupManifest } from './archive.js';

/** What making and keeping backups needs (the app's context, or what a command opened). */
export interface BackupsDeps {
  database: Database;
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storage'>;
  files: FileStore;
}

/** A running row whose heartbeat is older than this lost its process: it no longer holds the lock. */
const STALE_AFTER_MS = 2 * 60_000;
/** Where archives are kept in the bucket when the forum's files are in object storage. */
const BUCKET_PREFIX = 'backups/';
const SCHEDULE_TAG = 'backup';

const require = createRequire(import.meta.url);
/** The server package's version (package.json), written in every manifest. */
export const FORUM_VERSION: string = (require('../../../package.json') as { version: string }).version;

export function defaultBackupDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

const nowIso = () => new Date().toISOString();

/** Refused: another backup is being made (in this process or another). */
function busy(): AppError {
  return new AppError(Code.RESOURCE_IN_USE, {
    zh: '另一个备份正在进行，请等它完成后再试',
    en: 'Another backup is being made: try again once it is done',
  });
}

/**
 * Takes the lock: a running row. A running row whose heartbeat stopped (its process died) is marked failed first.
 * Throws busy() when another backup runs.
 */
async function claim(db: Kysely<DB>, name: string, origin: BackupOrigin, userId: number | null, location: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = nowIso();
    try {
      return await db
        .insertInto('backups')
        .values({ name, status: 'running', origin, location, userId, createdAt: now, heartbeatAt: now })
        .returning(['id'])
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const stale = new Date(Date.now() - STALE_AFTER_MS).toISOString();
      const released = await db
        .updateTable('backups')
        .set({ status: 'failed', error: 'interrupted: its process stopped', finishedAt: now })
        .where('status', '=', 'running')
        .where('heartbeatAt', '<', stale)
        .executeTakeFirst();
      if (Number(released.numUpdatedRows) === 0) throw busy();
    }
  }
  throw busy();
}

export interface BackupRow {
  id: number;
  name: string;
  status: string;
  origin: string;
  location: string;
  bytes: number;
  manifest: BackupManifest | null;
  error: string | null;
  userId: number | null;
  createdAt: string;
  finishedAt: string | null;
  /** Whether the archive can be downloaded from here (its file is on this machine, or in the bucket). */
  available: boolean;
}

async function present(deps: BackupsDeps, row: Record<string, unknown> & { path: string }): Promise<BackupRow> {
  const r = row as unknown as Omit<BackupRow, 'manifest' | 'available'> & { manifest: string | null; path: string };
  let available = false;
  if (r.status === 'done') {
    available =
      r.location === 'bucket'
        ? (await deps.files.stat(r.path).catch(() => null)) !== null
        : await fs.access(r.path).then(
            () => true,
            () => false,
          );
  }
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    origin: r.origin,
    location: r.location,
    bytes: Number(r.bytes),
    manifest: r.manifest ? (JSON.parse(r.manifest) as BackupManifest) : null,
    error: r.error,
    userId: r.userId,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    available,
  };
}

/**
 * Makes one backup, start to end, under the lock: the archive in `outDir` (by default DATA_DIR/backups; with object
 * storage it is then moved to the bucket under backups/, unless `outDir` was given). Answers the done row.
 * Refused with -4005 while another runs.
 */
export async function runBackup(
  deps: BackupsDeps,
  options: { origin: BackupOrigin; userId?: number | null; outDir?: string },
  started?: (id: number) => void,
): Promise<BackupRow> {
  const { db } = deps.database;
  const name = archiveName();
  const toBucket = deps.config.storage.kind === 's3' && !options.outDir;
  const { id } = await claim(db, name, options.origin, options.userId ?? null, toBucket ? 'bucket' : 'disk');
  started?.(id);
  try {
    const made = await makeArchive({
      database: deps.database,
      databaseUrl: deps.config.databaseUrl,
      dataDir: deps.config.dataDir,
      storage: deps.config.storage,
      forumVersion: FORUM_VERSION,
      outDir: options.outDir ?? defaultBackupDir(deps.config.dataDir),
      name,
      alive: async () => {
        await db.updateTable('backups').set({ heartbeatAt: nowIso() }).where('id', '=', id).execute();
      },
    });
    let where = made.file;
    if (toBucket) {
      where = `${BUCKET_PREFIX}${name}`;
      await deps.files.put(where, await fs.readFile(made.file), 'application/gzip');
      await fs.rm(made.file, { force: true });
    }
    await db
      .updateTable('backups')
      .set({
        status: 'done',
        path: where,
        bytes: made.bytes,
        manifest: JSON.stringify(made.manifest),
        finishedAt: nowIso(),
        heartbeatAt: nowIso(),
      })
      .where('id', '=', id)
      .execute();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db
      .updateTable('backups')
      .set({ status: 'failed', error: message.slice(0, 1000), finishedAt: nowIso() })
      .where('id', '=', id)
      .execute();
    throw error;
  }
  return (await findBackup(deps, id))!;
}

/**
 * Starts a backup for the back office and answers once it holds the lock (its row is running); the archive is made
 * in the background. Refused with -4005 while another runs.
 */
export async function startBackup(deps: BackupsDeps, userId: number, log: FastifyBaseLogger): Promise<{ id: number }> {
  return new Promise((resolve, reject) => {
    let claimed = false;
    runBackup(deps, { origin: 'manual', userId }, (id) => {
      claimed = true;
      resolve({ id });
    }).catch((error: unknown) => {
      if (!claimed) reject(error);
      else log.error({ err: error }, 'a backup failed');
    });
  });
}

async function findBackup(deps: BackupsDeps, id: number): Promise<BackupRow | null> {
  const row = await deps.database.db.selectFrom('backups').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? present(deps, row) : null;
}

/** Every backup, newest first (the back office's list). */
export async function listBackups(deps: BackupsDeps): Promise<BackupRow[]> {
  const rows = await deps.database.db.selectFrom('backups').selectAll().orderBy('id', 'desc').limit(500).execute();
  return Promise.all(rows.map((row) => present(deps, row)));
}

function missing(): AppError {
  return notFound({ zh: '没有这个备份', en: 'There is no such backup' });
}

/** Removes an archive and its row; a running one cannot be removed (-4005). */
export async function deleteBackup(deps: BackupsDeps, id: number): Promise<void> {
  const { db } = deps.database;
  const row = await db.selectFrom('backups').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw missing();
  if (row.status === 'running') {
    throw new AppError(Code.RESOURCE_IN_USE, {
      zh: '这个备份还在进行中，完成后才能删除',
      en: 'This backup is still being made: it can be deleted once it is done',
    });
  }
  await removeArchive(deps, row);
  await db.deleteFrom('backups').where('id', '=', id).execute();
}

async function removeArchive(deps: BackupsDeps, row: { location: string; path: string }): Promise<void> {
  if (!row.path) return;
  if (row.location === 'bucket') await deps.files.delete(row.path);
  else await fs.rm(row.path, { force: true });
}

/** A done archive's bytes, for download; -4004 when it is gone or not on this machine. */
export async function openArchive(
  deps: BackupsDeps,
  id: number,
): Promise<{ name: string; bytes: number; stream: Readable }> {
  const row = await deps.database.db.selectFrom('backups').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.status !== 'done') throw missing();
  if (row.location === 'bucket') {
    const object = await deps.files.get(row.path);
    if (!object) throw missing();
    return { name: row.name, bytes: object.info.size, stream: object.stream };
  }
  const stat = await fs.stat(row.path).catch(() => null);
  if (!stat) {
    throw notFound({
      zh: '这个备份的文件不在本机上（它在制作它的机器上，或已被移走）',
      en: 'The archive is not on this machine (it is on the machine that made it, or was moved)',
    });
  }
  return { name: row.name, bytes: stat.size, stream: createReadStream(row.path) };
}

const SCHEDULE_KEYS = ['backupScheduleEnabled', 'backupScheduleTime', 'backupKeep'] as const;

export async function readSchedule(db: Kysely<DB>): Promise<BackupSchedule> {
  const rows = await readSettings(db, SCHEDULE_KEYS, SCHEDULE_TAG);
  const value = (key: string) => rows.find((r) => r.key === key)?.value;
  const keep = Number(value('backupKeep'));
  const time = value('backupScheduleTime');
  return {
    enabled: value('backupScheduleEnabled') === '1',
    time: time && /^\d\d:\d\d$/.test(time) ? time : BACKUP_SCHEDULE_DEFAULTS.time,
    keep: Number.isInteger(keep) && keep > 0 ? keep : BACKUP_SCHEDULE_DEFAULTS.keep,
  };
}

export async function writeSchedule(db: Kysely<DB>, schedule: BackupSchedule): Promise<BackupSchedule> {
  await writeSetting(db, 'backupScheduleEnabled', SCHEDULE_TAG, schedule.enabled ? '1' : '0');
  await writeSetting(db, 'backupScheduleTime', SCHEDULE_TAG, schedule.time);
  await writeSetting(db, 'backupKeep', SCHEDULE_TAG, String(schedule.keep));
  return readSchedule(db);
}

/** Today's moment of the schedule's time, in the server's time zone (TZ). */
export function dueToday(time: string, now: Date): Date {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const due = new Date(now);
  due.setHours(hours, minutes, 0, 0);
  return due;
}

/** Removes the scheduled archives beyond the newest `keep` (made by hand or by the command are kept). */
export async function pruneScheduled(deps: BackupsDeps, keep: number): Promise<number> {
  const { db } = deps.database;
  const done = await db
    .selectFrom('backups')
    .select(['id', 'location', 'path'])
    .where('origin', '=', 'schedule')
    .where('status', '=', 'done')
    .orderBy('id', 'desc')
    .execute();
  const old = done.slice(keep);
  for (const row of old) {
    await removeArchive(deps, row);
    await db.deleteFrom('backups').where('id', '=', row.id).execute();
  }
  return old.length;
}

/**
 * The daily backup: every minute, each process looks whether today's is due and not made yet (any process may make
 * it: the lock lets one through), then keeps the newest `keep` of them.
 */
export class BackupScheduler {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(
    private readonly deps: BackupsDeps,
    private readonly everyMs = 60_000,
  ) {}

  start(log: FastifyBaseLogger): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(log), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look (the timer's; tests call it). Answers whether it made a backup. */
  async tick(log: FastifyBaseLogger, now = new Date()): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    try {
      const schedule = await readSchedule(this.deps.database.db);
      if (!schedule.enabled) return false;
      const due = dueToday(schedule.time, now);
      if (now < due) return false;
      const made = await this.deps.database.db
        .selectFrom('backups')
        .select('id')
        .where('origin', '=', 'schedule')
        .where('createdAt', '>=', due.toISOString())
        .executeTakeFirst();
      if (made) return false;
      try {
        await runBackup(this.deps, { origin: 'schedule' });
      } catch (error) {
        if (error instanceof AppError && error.code === Code.RESOURCE_IN_USE) return false;
        log.error({ err: error }, 'the scheduled backup failed');
        return false;
      }
      await pruneScheduled(this.deps, schedule.keep);
      return true;
    } catch (error) {
      log.error({ err: error }, 'the backup schedule could not be read');
      return false;
    } finally {
      this.busy = false;
    }
  }
}
