import { createHash } from 'node:crypto';
import type { Config } from '../config.js';

/**
 * A short name for this forum's data (its PostgreSQL database and schema, or its SQLite folder): the processes of
 * one forum share it, other forums on the same Redis or PostgreSQL server do not. Keys and channels carry it.
 */
export function forumKey(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): string {
  const identity = config.databaseUrl
    ? `${new URL(config.databaseUrl).pathname}|${config.databaseSchema ?? 'public'}`
    : config.dataDir;
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}
