import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';
import { copyFiles, DiskFileStore, openFileStore } from '../../core/storage/index.js';
import { migrateToLatest, openDatabase } from '../../db/database.js';
import {
  BackupError,
  countForum,
  readArchive,
  targetIsEmpty,
  unpackArchive,
  type BackupManifest,
  type ForumCounts,
} from './archive.js';

export interface RestoreResult {
  manifest: BackupManifest;
  restored: ForumCounts;
  /** Files put in place (DATA_DIR or the bucket). */
  files: number;
  /** Migrations run after the archive's (it was made by an older version). */
  migrated: string[];
}

/** The folders of the archive that hold files (core/storage's two halves). */
const FILE_FOLDERS = ['uploads', 'files'];

/**
 * `npm run restore -- FILE`: checks the archive whole first (a damaged or foreign one writes nothing), refuses a
 * target that holds a forum already unless `force`, puts the database and files in place, migrates the database
 * forward and counts what it restored. The forum must not be running on the target meanwhile.
 */
export async function restoreForum(
  file: string,
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir' | 'storage'>,
  options: { force: boolean },
): Promise<RestoreResult> {
  const { manifest } = await readArchive(file);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.database.kind !== kind) {
    throw new BackupError(
      manifest.database.kind === 'postgres'
        ? 'This archive is of a PostgreSQL forum: set DATABASE_URL (and DATABASE_SCHEMA if used) to restore it.'
        : 'This archive is of a SQLite forum: unset DATABASE_URL to restore it into DATA_DIR.',
      'kind',
    );
  }
  const target = { databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema, dataDir: config.dataDir };
  if (!options.force && !(await targetIsEmpty(target, config.storage))) {
    throw new BackupError(
      config.databaseUrl
        ? 'The target database already holds a forum: restore into an empty one, or add --force to replace it.'
        : `${config.dataDir} already holds a forum: restore into an empty DATA_DIR, or add --force to replace it.`,
      'not-empty',
    );
  }
  const { files } = await unpackArchive(file, manifest, target, {
    force: options.force,
    moveFiles: async (staging) => {
      let moved = 0;
      const store = openFileStore(config.storage, config.dataDir);
      try {
        if (config.storage.kind === 's3') {
          const summary = await copyFiles(new DiskFileStore(staging), store);
          if (summary.failed.length > 0) {
            throw new BackupError(
              `${summary.failed.length} files could not be put in the bucket (first: ${summary.failed[0]!.key}: ` +
                `${summary.failed[0]!.error}); run the restore again with --force.`,
              'tool-failed',
            );
          }
          return summary.copied + summary.skipped;
        }
        for (const folder of FILE_FOLDERS) {
          const from = path.join(staging, folder);
          const to = path.join(config.dataDir, folder);
          if (!(await fs.stat(from).catch(() => null))) continue;
          if (options.force) await fs.rm(to, { recursive: true, force: true });
          moved += (await fs.readdir(from, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
          if (await fs.stat(to).catch(() => null)) await fs.cp(from, to, { recursive: true, force: true });
          else await fs.rename(from, to);
        }
        return moved;
      } finally {
        await store.close();
      }
    },
  });
  const database = await openDatabase(config);
  try {
    const migrated = await migrateToLatest(database);
    const now = new Date().toISOString();
    const { size } = await fs.stat(file);
    // The archive's own row was running when its snapshot was taken: it is done (and this file is it). Any other
    // backup running then was cut short.
    await database.db
      .updateTable('backups')
      .set({
        status: 'done',
        location: 'disk',
        path: path.resolve(file),
        bytes: size,
        manifest: JSON.stringify(manifest),
        finishedAt: manifest.createdAt,
        heartbeatAt: now,
      })
      .where('name', '=', manifest.name)
      .execute();
    await database.db
      .updateTable('backups')
      .set({ status: 'failed', error: 'interrupted: the forum was restored from another backup', finishedAt: now })
      .where('status', '=', 'running')
      .execute();
    return { manifest, restored: await countForum(database), files, migrated };
  } finally {
    await database.destroy();
  }
}
