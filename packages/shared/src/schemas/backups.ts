import { z } from 'zod';
import { problem } from '../validation-messages.js';
import { bodyId, queryId } from './categories.js';
import { labeled } from './field-labels.js';

/**
 * Backups (docs/operations.md): archives of the database and the files, made by the back office, a daily schedule
 * or `npm run backup`, restored with `npm run restore`.
 */

/** The daily schedule when none was saved: off, at 03:00 server time, keeping the newest 7. */
export const BACKUP_SCHEDULE_DEFAULTS = { enabled: false, time: '03:00', keep: 7 } as const;
export const BACKUP_KEEP_MAX = 365;

/** POST /api/backAdmin/backups.schedule, and what GET /api/backAdmin/backups answers as `schedule`. */
export const backupScheduleBody = z.object({
  enabled: z.boolean(),
  time: labeled(
    z
      .string()
      .trim()
      .refine(
        (value) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value),
        problem({
          kind: 'sentence',
          zh: '时间需要写成 24 小时制的“时:分”，例如 03:00',
          en: 'The time must be hours and minutes on a 24-hour clock, such as 03:00',
        }),
      ),
    { zh: '每日备份时间', en: 'Daily backup time' },
  ),
  keep: labeled(z.number().int().min(1).max(BACKUP_KEEP_MAX), { zh: '保留份数', en: 'Archives kept' }),
});
export type BackupSchedule = z.infer<typeof backupScheduleBody>;

/** POST /api/backAdmin/backups: nothing to say (a JSON `{}`), but a body all the same: a form or other text is refused. */
export const backupCreateBody = z.object({}).strict();

/** POST /api/backAdmin/backups.delete */
export const backupIdBody = z.object({ id: bodyId });
/** GET /api/backAdmin/backups/download?id= */
export const backupIdQuery = z.object({ id: queryId });

/** Where a backup's archive is: on the disk of the machine that made it, or in the object storage bucket. */
export type BackupLocation = 'disk' | 'bucket';
export type BackupStatus = 'running' | 'done' | 'failed';
export type BackupOrigin = 'manual' | 'schedule' | 'cli';

/** One row of GET /api/backAdmin/backups. */
export interface BackupListItem {
  id: number;
  name: string;
  status: BackupStatus;
  origin: BackupOrigin;
  location: BackupLocation;
  bytes: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Whether it can be downloaded from this address (its file is on the machine that answered, or in the bucket). */
  available: boolean;
  /** From the archive's manifest, once done. */
  counts: { users: number; threads: number; posts: number } | null;
  walletSum: string | null;
  databaseKind: 'sqlite' | 'postgres' | null;
  /** Files: in the archive (how many) or left in the bucket. */
  files: { where: 'archive'; count: number; bytes: number } | { where: 'bucket' } | null;
}

export interface BackupListData {
  backups: BackupListItem[];
  schedule: BackupSchedule;
}
