// The public face of the backups module (docs/architecture.md, "Modules").
export { backupsRoutes } from './backups.routes.js';
export { restoreForum, type RestoreResult } from './restore.js';
export { BackupScheduler, defaultBackupDir, runBackup, type BackupsDeps } from './backups.service.js';
export {
  BackupError,
  countForum,
  readArchive,
  targetIsEmpty,
  unpackArchive,
  type BackupManifest,
  type ForumCounts,
} from './archive.js';
