import type { Kysely } from 'kysely';
import type { FileStore } from '../../core/storage/index.js';
import type { DialectName } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { DzqRow } from './source.js';

/*
 * The importer is a list of steps run in order (steps/index.ts): a table step reads one Discuz! Q table in batches
 * and writes each batch inside one transaction of the forum's database, with its progress; a final step (counters,
 * sequences) runs once at the end. A step knows nothing of where the rows come from (a live database or a dump).
 */

/** Kinds of rows whose ids the importer keeps, looked up to skip orphans (a post of a missing thread). */
export type IdKind =
  | 'users'
  | 'groups'
  | 'categories'
  | 'threads'
  | 'posts'
  | 'attachments'
  | 'topics'
  | 'dialogs'
  | 'dialogMessages'
  | 'orders'
  | 'votes';

export interface ImportOptions {
  /** The old site's storage folder (…/storage), where its local files are: none means files are listed as missing. */
  storageDir: string | null;
  /** The old site's config key (config/config.php `key`), to read its encrypted settings. */
  appKey: string | null;
  /** Where our files are kept (the forum's store: DATA_DIR or its bucket): imported images, avatars and files go there. */
  files: FileStore;
  dryRun: boolean;
  /** Notifications older than this many days are not brought over. */
  notificationDays: number;
}

/** What a run shares between steps: its options, the ids written so far, notes for the report. */
export interface ImportRun {
  options: ImportOptions;
  dialect: DialectName;
  /** The import's own time, for rows that carry none. */
  startedAt: string;
  /** The ids of one kind present in the forum (loaded once from the database, then kept as steps write). */
  ids(kind: IdKind): Promise<Set<number>>;
  /** A line for the report's notes (an opening balance, a setting that could not be read…). */
  note(text: string): void;
  /** Shared values a later step reads (e.g. the old site's file addresses of attachments). */
  memo: Map<string, unknown>;
}

export interface BatchContext {
  /** The batch's transaction (on a dry run, the one transaction of the whole run). */
  db: Kysely<DB>;
  run: ImportRun;
  /** Counts source rows written (default 1). */
  wrote(n?: number): void;
  /** Counts source rows skipped, and why (a short reason in English, e.g. 'thread missing'). */
  skip(reason: string, n?: number): void;
}

export interface TableStep {
  kind: 'table';
  /** The Discuz! Q table, without the prefix. */
  table: string;
  /** Its primary key (batches are read in this order; progress remembers the last one written). */
  key: readonly string[];
  /** Absent from some sites (older versions, optional features): skipped with a note instead of refused. */
  optional?: boolean;
  write(rows: DzqRow[], ctx: BatchContext): Promise<void>;
}

export interface FinalStep {
  kind: 'final';
  name: string;
  run(db: Kysely<DB>, run: ImportRun): Promise<void>;
}

export type Step = TableStep | FinalStep;

/** Rows per insert statement, under both databases' parameter limits for our widest table. */
export const INSERT_CHUNK = 200;

/** Inserts `rows` in chunks (one statement per INSERT_CHUNK rows). */
export async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await insert(rows.slice(i, i + INSERT_CHUNK));
}

/** Runs `fn` in a transaction: `db`'s own when it is one already (a dry run's), else a new one. */
export async function inTransaction(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<void>): Promise<void> {
  if (db.isTransaction) await fn(db);
  else await db.transaction().execute(fn);
}
