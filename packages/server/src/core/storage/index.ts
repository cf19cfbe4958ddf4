// Where the forum's files live (docs/deployment.md, "Files and object storage").
import { DiskFileStore } from './disk-store.js';
import type { FileStore, StorageSettings } from './file-store.js';
import { S3FileStore } from './s3-store.js';

export {
  PRIVATE_PREFIX,
  PUBLIC_PREFIX,
  assertKey,
  contentTypeOfKey,
  type FileStore,
  type StorageSettings,
} from './file-store.js';
export { DiskFileStore } from './disk-store.js';
export { S3FileStore } from './s3-store.js';

/** The store STORAGE_URL names: the bucket, or DATA_DIR on this machine. */
export function openFileStore(settings: StorageSettings, dataDir: string): FileStore {
  return settings.kind === 's3' ? new S3FileStore(settings) : new DiskFileStore(dataDir);
}
export { copyFiles, type CopyProgress } from './copy-files.js';
