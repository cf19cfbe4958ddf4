import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import {
  CamelCasePlugin,
  CompiledQuery,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresDialect,
  PostgresQueryCompiler,
  SqliteDialect,
  SqliteQueryCompiler,
  SqliteDriver,
  OperatorNode,
  PrimitiveValueListNode,
  ValueNode,
  sql,
  type ColumnMetadata,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type SchemaMetadata,
  type TableMetadata,
  type Driver,
  type BinaryOperationNode,
  type LimitNode,
  type SqliteDatabase as SqliteConnection,
  type SqliteDialectConfig,
  type Migration,
  type MigrationProvider,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryCompiler,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import { preparedStatements } from './prepared-statements.js';
import type { Config } from '../config.js';
import type { DB } from './schema.js';
import * as foundation from './migrations/2026112101-foundation.js';
import * as forum from './migrations/2026112102-forum.js';
import * as admin from './migrations/2026112103-admin.js';
import * as hotViews from './migrations/2026112104-hot-views.js';
import * as rateLimits from './migrations/2026112201-rate-limits.js';
import * as people from './migrations/2026112202-people.js';
import * as dialogs from './migrations/2026112210-dialogs.js';
import * as notifications from './migrations/2026112220-notifications.js';
import * as money from './migrations/2026112301-money.js';
import * as plugins from './migrations/2026112310-plugins.js';
import * as mail from './migrations/2026112320-mail.js';
import * as sms from './migrations/2026112321-sms.js';
import * as oauth from './migrations/2026112322-oauth.js';
import * as community from './migrations/2026112323-community.js';
import * as cacheTriggers from './migrations/2026112401-cache-triggers.js';
import * as purchases from './migrations/2026112601-purchases.js';
import * as purchasesBackfill from './migrations/2026112602-purchases-backfill.js';
import * as usernameChoice from './migrations/2026112603-username-choice.js';
import * as usernameChoiceBackfill from './migrations/2026112604-username-choice-backfill.js';
import * as replySearch from './migrations/2026112605-reply-search.js';
import * as replySearchFill from './migrations/2026112606-reply-search-fill.js';
import * as replySearchIndexes from './migrations/2026112607-reply-search-indexes.js';
import * as events from './migrations/2026112608-events.js';
import * as webhooks from './migrations/2026112609-webhooks.js';
import * as threadParts from './migrations/2026112710-thread-parts.js';
import * as anonymousThreads from './migrations/2026112712-anonymous-threads.js';
import * as topics from './migrations/2026112720-topics.js';
import * as redPackets from './migrations/2026112730-red-packets.js';
import * as votes from './migrations/2026112750-votes.js';
import * as emoji from './migrations/2026112712-emoji.js';
import * as threadPosition from './migrations/2026112760-thread-position.js';
import * as bounties from './migrations/2026112740-bounties.js';
import * as redPacketOrders from './migrations/2026112770-red-packet-orders.js';
import * as threadShares from './migrations/2026112780-thread-shares.js';
import * as imports from './migrations/2026112790-imports.js';
import * as freeWordsFraction from './migrations/2026112797-free-words-fraction.js';
import * as freeWordsFractionFill from './migrations/2026112798-free-words-fraction-fill.js';
import * as userThreadSticks from './migrations/2026112795-user-thread-sticks.js';
import * as threadPageVersions from './migrations/2026112901-thread-page-versions.js';
import * as backups from './migrations/2026112910-backups.js';
import * as postVersions from './migrations/2026112920-post-versions.js';
import * as apiKeys from './migrations/2026112930-api-keys.js';
import * as linkPreviews from './migrations/2026112940-link-previews.js';
import * as push from './migrations/2026112950-push.js';
import * as listCounters from './migrations/2026113001-list-counters.js';
import * as anonymousTopicCreators from './migrations/2026120101-anonymous-topic-creators.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** The PostgreSQL schema in use, when one was configured. */
  schema: string | undefined;
  /** The driver's own handle, for libraries that keep state in our database (rate limits). */
  handle:
    | { kind: 'sqlite'; sqlite: SqliteDatabase.Database }
    /** `prepare`: statements are named (db/prepared-statements.ts); a statement sent on the pool itself may be too. */
    | { kind: 'postgres'; pool: pg.Pool; prepare?: boolean };
  destroy(): Promise<void>;
}

/** Every migration, in order. Static imports keep them in the build; names are immutable once on main. */
const MIGRATIONS: Record<string, Migration> = {
  '2026112101-foundation': foundation,
  '2026112102-forum': forum,
  '2026112103-admin': admin,
  '2026112104-hot-views': hotViews,
  '2026112201-rate-limits': rateLimits,
  '2026112202-people': people,
  '2026112210-dialogs': dialogs,
  '2026112220-notifications': notifications,
  '2026112301-money': money,
  '2026112310-plugins': plugins,
  '2026112320-mail': mail,
  '2026112321-sms': sms,
  '2026112322-oauth': oauth,
  '2026112323-community': community,
  '2026112401-cache-triggers': cacheTriggers,
  '2026112601-purchases': purchases,
  '2026112602-purchases-backfill': purchasesBackfill,
  '2026112603-username-choice': usernameChoice,
  '2026112604-username-choice-backfill': usernameChoiceBackfill,
  '2026112605-reply-search': replySearch,
  '2026112606-reply-search-fill': replySearchFill,
  '2026112607-reply-search-indexes': replySearchIndexes,
  '2026112608-events': events,
  '2026112609-webhooks': webhooks,
  '2026112710-thread-parts': threadParts,
  '2026112712-anonymous-threads': anonymousThreads,
  '2026112720-topics': topics,
  '2026112730-red-packets': redPackets,
  '2026112750-votes': votes,
  '2026112712-emoji': emoji,
  '2026112760-thread-position': threadPosition,
  '2026112740-bounties': bounties,
  '2026112770-red-packet-orders': redPacketOrders,
  '2026112780-thread-shares': threadShares,
  '2026112790-imports': imports,
  '2026112797-free-words-fraction': freeWordsFraction,
  '2026112798-free-words-fraction-fill': freeWordsFractionFill,
  '2026112795-user-thread-sticks': userThreadSticks,
  '2026112901-thread-page-versions': threadPageVersions,
  '2026112910-backups': backups,
  '2026112920-post-versions': postVersions,
  '2026112930-api-keys': apiKeys,
  '2026112940-link-previews': linkPreviews,
  '2026112950-push': push,
  '2026113001-list-counters': listCounters,
  '2026120101-anonymous-topic-creators': anonymousTopicCreators,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'> & Partial<Pick<Config, 'databasePrepare'>>,
): Promise<Database> {
  if (config.databaseUrl) {
    const pg = pgDriver();
    const schema = config.databaseSchema;
    if (schema) {
      // Make sure the schema exists before the pool starts using it as its search_path.
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query(`create schema if not exists "${schema}"`);
      } finally {
        await client.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path="${schema}"` } : {}),
    });
    // An idle connection that PostgreSQL ends (a restart, a failover, pg_terminate_backend, idle_session_timeout, a
    // database dropped with force) is dropped by the pool, which opens another when next asked: its error is news,
    // not a failure. Without a listener the pool's 'error' event would end the process.
    pool.on('error', (error) => {
      console.error(`[database] PostgreSQL closed an idle connection; the pool opens another: ${error.message}`);
    });
    // Named prepared statements unless DATABASE_PREPARE=off (db/prepared-statements.ts).
    const prepare = config.databasePrepare !== false;
    const statements = prepare ? preparedStatements(pool) : pool;
    const db = new Kysely<DB>({
      dialect: new SnakeCasePostgresDialect({ pool: statements }),
      plugins: [new CamelCaseRows()],
    });
    return {
      db,
      dialect: 'postgres',
      schema,
      handle: { kind: 'postgres', pool, prepare },
      destroy: () => db.destroy(),
    };
  }

  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'luntan.sqlite');
  const sqlite = new SqliteDatabase(file);
  // First, so that even these pragmas wait for another process's writer instead of failing (WORKERS>1).
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite, camelCase) }),
    // The rows' names are camelCase already (RowBuilder, once per statement).
    plugins: [new CamelCaseRows({ rowsNamed: true })],
  });
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    handle: { kind: 'sqlite', sqlite },
    destroy: () => db.destroy(),
  };
}

/*
 * Names: the code says camelCase (schema.ts), the tables snake_case. Kysely's CamelCasePlugin maps every identifier
 * of every query by copying the whole operation tree (a tenth of a thread list's CPU: every query is built, copied
 * and compiled on every call) and every row's keys with a fresh object. Here the same mapping (the plugin's own
 * snakeCase and camelCase, so the names are exactly the plugin's) is made where the text is written: the compilers
 * below snake-case each identifier as they append it, and on SQLite RowBuilder names the columns once per statement;
 * on PostgreSQL the rows go through the plugin's row mapping (json values' keys included, as before), with the
 * names remembered.
 */
const NAME_MEMO_LIMIT = 10_000;
/** CamelCasePlugin's own mappings, reachable. */
class Naming extends CamelCasePlugin {
  toSnake(name: string): string {
    return this.snakeCase(name);
  }
  toCamel(name: string): string {
    return this.camelCase(name);
  }
}
const naming = new Naming();

function memoized(map: (name: string) => string): (name: string) => string {
  const known = new Map<string, string>();
  return (name) => {
    let mapped = known.get(name);
    if (mapped === undefined) {
      // Names come from the code; a runaway set (identifiers made from input) only stops being remembered.
      if (known.size >= NAME_MEMO_LIMIT) known.clear();
      mapped = map(name);
      known.set(name, mapped);
    }
    return mapped;
  };
}

/** A table's or column's name as the code writes it, as the database has it (`threadId` → `thread_id`). */
export const snakeCase = memoized((name) => naming.toSnake(name));
/** A column's name as the database answers it, as the code reads it (`thread_id` → `threadId`). */
export const camelCase = memoized((name) => naming.toCamel(name));

class SnakeCaseSqliteCompiler extends SqliteQueryCompiler {
  protected override sanitizeIdentifier(identifier: string): string {
    return super.sanitizeIdentifier(snakeCase(identifier));
  }

  /**
   * A whole-number limit is written into the text instead of bound: SQLite re-prepares a statement every time a value
   * is bound to its `LIMIT ?` (db/row-limit.ts says why), which made each cached statement with a limit parse and
   * plan again on every run. The texts differ only by page size (each list caps what a client may ask for, and the
   * statement cache keeps at most STATEMENT_CACHE_SIZE texts); the offset stays bound.
   */
  protected override visitLimit(node: LimitNode): void {
    const { limit } = node;
    if (ValueNode.is(limit) && Number.isSafeInteger(limit.value) && (limit.value as number) >= 0) {
      this.append(`limit ${limit.value as number}`);
      return;
    }
    super.visitLimit(node);
  }
}

/**
 * PostgreSQL's compiler, with `x in (a, b, c)` written `x = any($1)` and `x not in (...)` `x <> all($1)`, the list
 * bound as one array. A list's length no longer changes the statement's text, so a statement is one text whatever the
 * page holds: one prepared statement and one plan for each (db/prepared-statements.ts), where every length was
 * another (the replies' likes of a thread page read as many texts as pages have lengths). Same rows, NULLs included.
 * Lists of expressions (not plain values) and subqueries are written as Kysely writes them.
 */
export class ListsAsArraysPostgresCompiler extends PostgresQueryCompiler {
  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const operator = OperatorNode.is(node.operator) ? node.operator.operator : undefined;
    if ((operator === 'in' || operator === 'not in') && PrimitiveValueListNode.is(node.rightOperand)) {
      this.visitNode(node.leftOperand);
      this.append(operator === 'in' ? ' = any(' : ' <> all(');
      this.appendValue([...node.rightOperand.values]);
      this.append(')');
      return;
    }
    super.visitBinaryOperation(node);
  }
}

class SnakeCasePostgresCompiler extends ListsAsArraysPostgresCompiler {
  protected override sanitizeIdentifier(identifier: string): string {
    return super.sanitizeIdentifier(snakeCase(identifier));
  }
}

class SnakeCasePostgresDialect extends PostgresDialect {
  override createQueryCompiler(): QueryCompiler {
    return new SnakeCasePostgresCompiler();
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}

/**
 * Kysely's PostgreSQL introspector (which its migrator asks whether its tables exist) reads every schema's columns and
 * calls `pg_get_serial_sequence` on each; that function looks the column up in the live catalog, not in the query's
 * snapshot, so a column another forum's migration renames or drops at that moment in the same database (several forums
 * sharing one database, the tests' schemas) fails the read with "column … does not exist". This one reads only the
 * schemas of the connection's search_path, where only this forum's migrations (one at a time, under their lock) change
 * anything: the function runs on those rows only.
 */
class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows.map((row) => ({ name: row.name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      column: string;
      notNull: boolean;
      hasDefault: boolean;
      table: string;
      tableType: string;
      schema: string;
      type: string;
      typeSchema: string;
      comment: string | null;
      autoIncrementing: boolean;
    }>`select a.attname as "column", a.attnotnull as "notNull", a.atthasdef as "hasDefault", c.relname as "table",
         c.relkind as "tableType", ns.nspname as "schema", typ.typname as "type", dtns.nspname as "typeSchema",
         dsc.description as "comment",
         pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null
           as "autoIncrementing"
       from pg_catalog.pg_attribute a
       join pg_catalog.pg_class c on c.oid = a.attrelid
       join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
       join pg_catalog.pg_type typ on typ.oid = a.atttypid
       join pg_catalog.pg_namespace dtns on dtns.oid = typ.typnamespace
       left join pg_catalog.pg_description dsc
         on dsc.objoid = c.oid and dsc.classoid = 'pg_catalog.pg_class'::regclass and dsc.objsubid = a.attnum
      where c.relkind in ('r', 'v', 'p') and ns.nspname = any (current_schemas(false))
        and a.attnum > 0 and not a.attisdropped
        and (${options.withInternalKyselyTables ?? false} or c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE}))
      order by ns.nspname, c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, { name: string; schema: string; isView: boolean; columns: ColumnMetadata[] }>();
    for (const row of rows) {
      const key = `${row.schema}.${row.table}`;
      let table = tables.get(key);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.tableType === 'v', columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.typeSchema,
        isNullable: !row.notNull,
        hasDefaultValue: row.hasDefault,
        isAutoIncrementing: row.autoIncrementing,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** The row half of CamelCasePlugin; the query half is the compilers' (above). */
class CamelCaseRows extends CamelCasePlugin {
  constructor(private readonly options: { rowsNamed?: boolean } = {}) {
    super();
  }

  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return this.options.rowsNamed ? args.result : super.transformResult(args);
  }

  override camelCase(name: string): string {
    return camelCase(name);
  }
}

/**
 * Kysely's SQLite driver begins a transaction with a plain (deferred) `begin`: it takes the write lock only at its
 * first write. When another process wrote in between, SQLite cannot upgrade the transaction's read snapshot to a
 * write and fails at once with SQLITE_BUSY, whatever the busy timeout. `begin immediate` takes the write lock at the
 * start, waiting up to the busy timeout for another process's writer to finish, so a transaction that reads then
 * writes never fails for being concurrent. Transactions marked `setAccessMode('read only')` stay deferred.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(
      CompiledQuery.raw(settings?.accessMode === 'read only' ? 'begin' : 'begin immediate'),
    );
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly options: SqliteDialectConfig) {
    super(options);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.options);
  }

  override createQueryCompiler(): QueryCompiler {
    return new SnakeCaseSqliteCompiler();
  }
}

/** How many prepared statements one SQLite connection keeps (distinct SQL texts the app sends). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely's SQLite driver prepares every query again:
 * about a tenth of the CPU of a list request. The app sends a few hundred distinct SQL texts, so the connection keeps
 * the compiled statements by text (least recently used ones are dropped). Reusing one is safe because every call
 * runs to completion synchronously (`all`/`run`); SQLite recompiles a cached statement by itself after a schema
 * change. A statement still being iterated (Kysely's `stream()`, which the app does not use) is not handed out twice.
 */
export function withStatementCache(
  sqlite: SqliteDatabase.Database,
  /** How a column's name reads in the rows (by default as SQLite answers it). */
  nameColumn: (name: string) => string = (name) => name,
): SqliteConnection {
  const statements = new LRUCache<string, SqliteDatabase.Statement | RowBuilder>({ max: STATEMENT_CACHE_SIZE });
  return {
    prepare(source: string) {
      const cached = statements.get(source);
      if (cached && !cached.busy) return cached;
      const prepared = sqlite.prepare(source);
      const statement = prepared.reader ? new RowBuilder(prepared, nameColumn) : prepared;
      statements.set(source, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * A statement that returns rows, read as arrays and made into objects here. better-sqlite3 (on Node 20) makes each
 * row's object in C++, looking every column's name up in V8's string table again for every row and setting the
 * properties one by one: a page of 20 threads of 32 columns spent longer on that than on everything else the query
 * does. Here the names are read once per statement and every row's object is filled in the same order (one hidden
 * class), with the keys, values and order better-sqlite3 gives. Reading the names again (`columns()`) costs more
 * than a page of rows, and asking SQLite whether the schema moved costs a read lock per query; so they are read
 * again when a row's width changes: SQLite recompiles a cached statement after a migration, and a migration that
 * adds or drops a column changes the width of a `select *`. Migrations run before the server serves (cluster
 * workers start after the primary's), so a column renamed under a running process, which keeps the width, is not
 * looked for.
 */
class RowBuilder {
  readonly reader = true;
  private names: string[] | null = null;

  constructor(
    private readonly statement: SqliteDatabase.Statement,
    private readonly nameColumn: (name: string) => string,
  ) {
    statement.raw(true);
  }

  get busy(): boolean {
    return this.statement.busy;
  }

  all(...parameters: unknown[]): Record<string, unknown>[] {
    const rows = this.statement.all(...parameters) as unknown[][];
    if (rows.length === 0) return [];
    const names = this.namesFor(rows[0]!);
    return rows.map((row) => buildRow(names, row));
  }

  *iterate(...parameters: unknown[]): IterableIterator<Record<string, unknown>> {
    for (const row of this.statement.iterate(...parameters) as IterableIterator<unknown[]>) {
      yield buildRow(this.namesFor(row), row);
    }
  }

  run(...parameters: unknown[]): SqliteDatabase.RunResult {
    return this.statement.run(...parameters);
  }

  /** The columns' names, read when first needed and again when the rows' width no longer matches them. */
  private namesFor(row: readonly unknown[]): string[] {
    if (this.names === null || this.names.length !== row.length) {
      this.names = this.statement.columns().map((c) => this.nameColumn(c.name));
    }
    return this.names;
  }
}

/** One row's object: every column in order, set as better-sqlite3 sets them on Node 20 (`row->Set`). */
function buildRow(names: readonly string[], row: readonly unknown[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) object[names[i]!] = row[i];
  return object;
}

/** Where the database's shared extensions live (PostgreSQL), apart from any forum's schema. */
const EXTENSIONS_SCHEMA = 'luntan_extensions';

/**
 * pg_trgm exists once per database, in the schema it was created in. Created from a forum's own schema (search_path),
 * it would live there, and dropping that schema (several forums, or the tests' schemas, sharing one database) would
 * drop it with every other schema's trigram indexes, even while another forum builds one ("referenced operator class
 * was concurrently dropped"). So it is made first in a schema of its own; the migrations find it wherever it is. Where
 * the role may not create a schema, the migration creates it in the forum's schema as before.
 */
async function ensureSharedExtensions(database: Database): Promise<void> {
  if (database.dialect !== 'postgres') return;
  const exists = async () =>
    (await sql<{ n: number }>`select count(*) as n from pg_extension where extname = 'pg_trgm'`.execute(database.db))
      .rows[0]!.n > 0;
  if (await exists()) return;
  try {
    await sql`create schema if not exists ${sql.id(EXTENSIONS_SCHEMA)}`.execute(database.db);
    await sql`create extension if not exists pg_trgm schema ${sql.id(EXTENSIONS_SCHEMA)}`.execute(database.db);
  } catch (err) {
    // Another process made it at the same moment (a duplicate), or this role may not: the migration decides.
    if (!(await exists()) && !/duplicate|already exists|permission denied/i.test(String(err))) throw err;
  }
}

/** Runs every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  await ensureSharedExtensions(database);
  // With a schema, the migrator's own tables live in it too (its table check reads the search_path's schemas).
  const migrator = new Migrator({
    db: database.db,
    provider,
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const where = failed ? ` (migration ${failed.migrationName})` : '';
    throw new Error(`Database migration failed${where}: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
