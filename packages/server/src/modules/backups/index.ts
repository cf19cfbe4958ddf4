// The public face of the backups module (docs/architecture.md, "Modules").
export { backupsRoutes } from './backups.routes.js';
export { restoreForum } from './restore.js';
export { BackupScheduler, defaultBackupDir, runBackup } from './backups.service.js';
export { BackupError, type ForumCounts } from './archive.js';
