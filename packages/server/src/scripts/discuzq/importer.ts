import { sql, type Kysely } from 'kysely';
import { now } from '../../core/time.js';
import { syncIdentity } from '../../db/migration-helpers.js';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { DzqRow, DzqSource, DzqValue } from './source.js';
import { inTransaction, type IdKind, type ImportOptions, type ImportRun, type Step, type TableStep } from './steps.js';

/*
 * The run: checks that the source is a Discuz! Q v3 database and the forum may take it, then runs the steps in
 * order. Each batch of a table is written in one transaction together with the table's progress row, so a run that
 * is killed resumes after the last batch that landed (no duplicates, exact counts). --dry-run runs every batch and
 * rolls it back: everything is read, mapped and checked against the database's constraints, nothing is kept.
 */

export class ImportRefused extends Error {
  constructor(
    message: string,
    readonly reason: 'not-discuzq' | 'wrong-prefix' | 'not-empty' | 'already-imported',
  ) {
    super(message);
    this.name = 'ImportRefused';
  }
}

export interface TableReport {
  table: string;
  read: number;
  written: number;
  skipped: Record<string, number>;
  /** The table is not in the source (an optional one). */
  absent?: boolean;
}

export interface ImportReport {
  tables: TableReport[];
  notes: string[];
  dryRun: boolean;
  resumed: boolean;
  seconds: number;
}

/** What the importer tells the person running it while it works (the CLI draws bars; tests pass nothing). */
export interface ImportProgress {
  start(table: string, total: number): void;
  advance(rows: number): void;
  stop(): void;
}

const quiet: ImportProgress = { start: () => {}, advance: () => {}, stop: () => {} };

/** The tables a Discuz! Q v3 database has that the import cannot do without. */
const REQUIRED_TABLES = [
  'users',
  'groups',
  'group_user',
  'group_permission',
  'categories',
  'threads',
  'posts',
  'attachments',
  'settings',
  'user_wallets',
  'orders',
];

/** The tables of ours the import fills, children first (cleared in this order before a fresh import). */
const FILLED_TABLES = [
  'legacy_redirects',
  'notifications',
  'bounty_awards',
  'thread_bounties',
  'thread_red_packet_shares',
  'thread_red_packets',
  'thread_vote_users',
  'thread_vote_subitems',
  'thread_votes',
  'thread_parts',
  'thread_topic',
  'topics',
  'wallet_logs',
  'purchases',
  'payment_receipts',
  'orders',
  'wallet_cash',
  'wallets',
  'reports',
  'invited_users',
  'invites',
  'user_signin_fields',
  'signin_fields',
  'dialog_messages',
  'dialog_members',
  'dialogs',
  'user_follows',
  'user_denies',
  'post_mentions',
  'post_likes',
  'thread_favorites',
  'thread_views_daily',
  'attachments',
  'post_search',
  'thread_search',
  'posts',
  'threads',
  'categories',
  'user_identities',
  'access_tokens',
  'email_tokens',
  'user_generated_passwords',
  'group_user',
  'group_permission',
  'groups',
  'users',
  'stop_words',
  'emoji',
  'import_progress',
];

export interface RunImportInput {
  database: Pick<Database, 'db' | 'dialect'>;
  source: DzqSource;
  prefix: string;
  steps: Step[];
  options: ImportOptions;
  force: boolean;
  progress?: ImportProgress;
}

export async function runImport(input: RunImportInput): Promise<ImportReport> {
  const { database, source, prefix, steps, options } = input;
  const progress = input.progress ?? quiet;
  const began = Date.now();
  const db = database.db;
  const tables = new Set(await source.tableNames());
  await checkSource(tables, prefix);

  const resumed = await checkTarget(db, input.force);
  const notes: string[] = [];
  let reports: TableReport[] = [];
  const work = async (target: Kysely<DB>, batch: Batcher) => {
    if (!resumed) await emptyTarget(target);
    // Loaded now, outside any batch's transaction (SQLite has one connection: a read beside an open transaction
    // would wait for it for ever); steps add what they write.
    const idCache = new Map<IdKind, Set<number>>();
    for (const kind of ID_KINDS) idCache.set(kind, await loadIds(target, kind));
    const run: ImportRun = {
      options,
      dialect: database.dialect,
      startedAt: now(),
      memo: new Map(),
      note: (text) => notes.push(text),
      ids: (kind) => Promise.resolve(idCache.get(kind)!),
    };
    const cos = await target
      .selectFrom('legacyRedirects')
      .select('target')
      .where('path', '=', 'dzq:cos-base')
      .executeTakeFirst();
    if (cos) run.memo.set('cosBase', cos.target);
    reports = [];
    for (const step of steps) {
      if (step.kind === 'final') {
        await step.run(target, run);
        continue;
      }
      const full = prefix + step.table;
      if (!tables.has(full)) {
        if (!step.optional) throw new ImportRefused(`The source has no table ${full}.`, 'not-discuzq');
        reports.push({ table: step.table, read: 0, written: 0, skipped: {}, absent: true });
        continue;
      }
      reports.push(await runTableStep(target, batch, source, full, step, run, progress));
    }
    await finish(target);
  };
  if (options.dryRun) {
    // One transaction for the whole run, rolled back at the end: later tables see the earlier ones' rows (their
    // foreign keys hold), and nothing stays.
    await db
      .transaction()
      .execute(async (trx) => {
        await work(trx, (fn) => fn(trx));
        throw new DryRunRollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof DryRunRollback)) throw error;
      });
  } else {
    await work(db, (fn) => db.transaction().execute(fn));
  }
  return { tables: reports, notes, dryRun: options.dryRun, resumed, seconds: (Date.now() - began) / 1000 };
}

/** Missing tables are named; a wrong prefix is answered with the prefixes the database does hold. */
async function checkSource(tables: Set<string>, prefix: string): Promise<void> {
  const missing = REQUIRED_TABLES.filter((t) => !tables.has(prefix + t));
  if (missing.length === 0) return;
  if (missing.length === REQUIRED_TABLES.length) {
    const prefixes = [...tables]
      .filter((t) => t.endsWith('group_permission'))
      .map((t) => t.slice(0, -'group_permission'.length))
      .filter((p) => REQUIRED_TABLES.every((r) => tables.has(p + r)));
    if (prefixes.length > 0) {
      const named = prefixes.map((p) => (p === '' ? '(none)' : p)).join(', ');
      throw new ImportRefused(
        `No Discuz! Q tables with the prefix "${prefix}". This database holds them with the prefix: ${named} (use --prefix).`,
        'wrong-prefix',
      );
    }
  }
  throw new ImportRefused(
    `This is not a Discuz! Q v3 database: it has no ${missing.map((t) => prefix + t).join(', ')}.`,
    'not-discuzq',
  );
}

/**
 * A forum may take an import when it holds nothing but what a fresh start made (no thread, no post, at most the
 * first administrator), or when an earlier import stopped midway (it resumes). Otherwise --force empties it first.
 * Returns whether the run resumes an earlier one.
 */
async function checkTarget(db: Kysely<DB>, force: boolean): Promise<boolean> {
  const progress = await db.selectFrom('importProgress').select(['sourceTable', 'done']).execute();
  if (progress.length > 0 && !force) {
    if (progress.every((p) => p.done === 1) && progress.some((p) => p.sourceTable === '#finished')) {
      throw new ImportRefused(
        'This forum already holds a finished import. Run with --force to empty it and import again.',
        'already-imported',
      );
    }
    return true;
  }
  if (!force) {
    const count = async (table: 'threads' | 'posts' | 'users') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [threads, posts, users] = await Promise.all([count('threads'), count('posts'), count('users')]);
    if (threads > 0 || posts > 0 || users > 1) {
      throw new ImportRefused(
        `This forum is not empty (${users} users, ${threads} threads, ${posts} posts). Import into a new forum, or run with --force to delete its content first.`,
        'not-empty',
      );
    }
  }
  return false;
}

/** Empties what the import fills (the fresh start's groups, category, administrator and settings' rows it maps). */
async function emptyTarget(db: Kysely<DB>): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const table of FILLED_TABLES) await sql`delete from ${sql.table(table)}`.execute(trx);
  });
}

/** Runs one batch's writes in a transaction (on a dry run, in the run's own). */
type Batcher = (fn: (trx: Kysely<DB>) => Promise<void>) => Promise<void>;

const ID_TABLES: Record<IdKind, string> = {
  users: 'users',
  groups: 'groups',
  categories: 'categories',
  threads: 'threads',
  posts: 'posts',
  attachments: 'attachments',
  topics: 'topics',
  dialogs: 'dialogs',
  dialogMessages: 'dialog_messages',
  orders: 'orders',
  votes: 'thread_votes',
};
const ID_KINDS = Object.keys(ID_TABLES) as IdKind[];

async function loadIds(db: Kysely<DB>, kind: IdKind): Promise<Set<number>> {
  const table = ID_TABLES[kind];
  const rows = await sql<{ id: number }>`select id from ${sql.table(table)}`.execute(db);
  return new Set(rows.rows.map((r) => Number(r.id)));
}

class DryRunRollback extends Error {}

interface ProgressRow {
  lastKey: DzqValue[] | null;
  read: number;
  written: number;
  skipped: Record<string, number>;
  done: boolean;
}

async function readProgress(db: Kysely<DB>, table: string): Promise<ProgressRow> {
  const row = await db.selectFrom('importProgress').selectAll().where('sourceTable', '=', table).executeTakeFirst();
  if (!row) return { lastKey: null, read: 0, written: 0, skipped: {}, done: false };
  return {
    lastKey: row.lastKey === null ? null : (JSON.parse(row.lastKey) as DzqValue[]),
    read: row.readRows,
    written: row.writtenRows,
    skipped: JSON.parse(row.skipped) as Record<string, number>,
    done: row.done === 1,
  };
}

async function saveProgress(db: Kysely<DB>, table: string, p: ProgressRow): Promise<void> {
  const values = {
    lastKey: p.lastKey === null ? null : JSON.stringify(p.lastKey),
    readRows: p.read,
    writtenRows: p.written,
    skipped: JSON.stringify(p.skipped),
    done: p.done ? 1 : 0,
    updatedAt: now(),
  };
  await db
    .insertInto('importProgress')
    .values({ sourceTable: table, ...values })
    .onConflict((oc) => oc.column('sourceTable').doUpdateSet(values))
    .execute();
}

const BATCH_ROWS = 1000;

async function runTableStep(
  db: Kysely<DB>,
  batch: Batcher,
  source: DzqSource,
  full: string,
  step: TableStep,
  run: ImportRun,
  progress: ImportProgress,
): Promise<TableReport> {
  const state = await readProgress(db, step.table);
  if (state.done) {
    return { table: step.table, read: state.read, written: state.written, skipped: state.skipped };
  }
  progress.start(step.table, await source.count(full));
  progress.advance(state.read);
  try {
    for await (const rows of source.batches(full, { key: step.key, after: state.lastKey, size: BATCH_ROWS })) {
      if (rows.length === 0) continue;
      const next: ProgressRow = { ...state, skipped: { ...state.skipped } };
      let wrote = 0;
      await batch(async (trx) => {
        await step.write(rows, {
          db: trx,
          run,
          wrote: (n = 1) => {
            wrote += n;
          },
          skip: (reason, n = 1) => {
            next.skipped[reason] = (next.skipped[reason] ?? 0) + n;
          },
        });
        const last: DzqRow = rows[rows.length - 1]!;
        next.lastKey = step.key.map((k) => last[k] ?? null);
        next.read += rows.length;
        next.written += wrote;
        await saveProgress(trx, step.table, next);
      });
      Object.assign(state, next);
      progress.advance(rows.length);
    }
    state.done = true;
    await saveProgress(db, step.table, state);
  } finally {
    progress.stop();
  }
  return { table: step.table, read: state.read, written: state.written, skipped: state.skipped };
}

/** PostgreSQL's id sequences continue after the kept ids; the run is marked finished. */
async function finish(db: Kysely<DB>): Promise<void> {
  for (const table of [
    'users',
    'groups',
    'categories',
    'threads',
    'posts',
    'attachments',
    'topics',
    'dialogs',
    'dialog_messages',
    'orders',
    'wallet_cash',
    'wallet_logs',
    'notifications',
    'reports',
    'invites',
    'stop_words',
    'signin_fields',
    'user_signin_fields',
    'emoji',
    'thread_parts',
    'thread_votes',
    'thread_vote_subitems',
    'thread_vote_users',
    'thread_red_packets',
    'thread_bounties',
    'bounty_awards',
    'thread_red_packet_shares',
    'user_identities',
  ]) {
    await syncIdentity(db as unknown as Kysely<unknown>, table);
  }
  await saveProgress(db, '#finished', { lastKey: null, read: 0, written: 0, skipped: {}, done: true });
}
