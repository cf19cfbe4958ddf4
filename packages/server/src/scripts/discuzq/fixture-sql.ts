/*
 * SQL text helpers for the Discuz! Q test fixture: the install dump's table shapes, mysqldump-style INSERT rendering,
 * table prefixes, and the PHP encodings Discuz! Q applies before it stores a value. Used by tests and the bench only.
 */
import { readFileSync } from 'node:fs';

/** The database a fresh v3.0.220113 install creates (copy of the project's shared/dzq reference dump). */
export const INSTALL_SQL_FILE = new URL('../../../test-data/discuzq-v3.0.220113-install.sql', import.meta.url);

let installSql: string | undefined;
export function readInstallSql(): string {
  installSql ??= readFileSync(INSTALL_SQL_FILE, 'utf8');
  return installSql;
}

export interface ColumnShape {
  name: string;
  type: string;
  notNull: boolean;
  autoIncrement: boolean;
  /** The DEFAULT clause as written (`''`, `0`, `current_timestamp()`, `NULL`), or undefined when there is none. */
  default: string | undefined;
}

let shapes: Map<string, ColumnShape[]> | undefined;

/** Every install table's columns in CREATE TABLE order, so rows render as mysqldump writes them (no column list). */
export function installTables(): Map<string, ColumnShape[]> {
  if (shapes) return shapes;
  shapes = new Map();
  const create = /CREATE TABLE `([^`]+)` \(\n([\s\S]*?)\n\)/g;
  for (const m of readInstallSql().matchAll(create)) {
    const columns: ColumnShape[] = [];
    for (const line of (m[2] ?? '').split('\n')) {
      const col = /^\s+`([^`]+)` (\S+)(.*)$/.exec(line);
      if (!col) continue;
      const [, name = '', type = '', rest = ''] = col;
      const def = /DEFAULT ('(?:[^'\\]|\\.)*'|\S+?)(?:,| COMMENT|$| ON UPDATE)/.exec(rest);
      columns.push({
        name,
        type: type.toLowerCase(),
        notNull: rest.includes('NOT NULL'),
        autoIncrement: rest.includes('AUTO_INCREMENT'),
        default: def ? def[1] : undefined,
      });
    }
    shapes.set(m[1] ?? '', columns);
  }
  return shapes;
}

export type SqlValue = string | number | null;
export type SqlRow = Record<string, SqlValue>;

const NUMERIC = /^(?:tinyint|smallint|mediumint|int|bigint|decimal|double|float)/;

/** mysqldump's string escaping (the same set of characters, so a dump parser sees what a real dump holds). */
export function quoteSql(value: string): string {
  // Backslash first, so the escapes added after it are not escaped again.
  const escaped = value
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    .replaceAll('"', '\\"')
    .replaceAll('\0', '\\0')
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r')
    .replaceAll(String.fromCharCode(0x1a), '\\Z');
  return `'${escaped}'`;
}

function renderValue(table: string, column: ColumnShape, value: SqlValue | undefined): string {
  if (value === undefined) {
    if (column.default === undefined) {
      if (column.notNull) throw new Error(`${table}.${column.name} is NOT NULL without a default: give it a value`);
      return 'NULL';
    }
    // Dumps hold the value a default produced, never the expression: use a fixed instant so output is stable.
    if (column.default === 'current_timestamp()') return quoteSql('2021-01-30 08:00:00');
    return column.default;
  }
  if (value === null) {
    if (column.notNull) throw new Error(`${table}.${column.name} is NOT NULL`);
    return 'NULL';
  }
  if (NUMERIC.test(column.type)) {
    const text = String(value);
    if (!/^-?\d+(?:\.\d+)?$/.test(text)) throw new Error(`${table}.${column.name}: ${text} is not a number`);
    return text;
  }
  return quoteSql(String(value));
}

const columnNames = new Map<string, Set<string>>();

/** One row's VALUES tuple in the install table's column order; unknown columns are a mistake in the fixture. */
export function renderRow(table: string, row: SqlRow): string {
  const columns = installTables().get(table);
  if (!columns) throw new Error(`no table ${table} in the install dump`);
  let known = columnNames.get(table);
  if (!known) columnNames.set(table, (known = new Set(columns.map((c) => c.name))));
  for (const key in row) {
    if (!known.has(key)) throw new Error(`${table} has no column ${key}`);
  }
  return `(${columns.map((c) => renderValue(table, c, row[c.name])).join(',')})`;
}

/** An extended INSERT as mysqldump writes it (`INSERT INTO \`t\` VALUES (..),(..);`), or REPLACE for rows that exist. */
export function renderInsert(table: string, rows: readonly SqlRow[], verb: 'INSERT' | 'REPLACE' = 'INSERT'): string {
  if (rows.length === 0) return '';
  return `${verb} INTO \`${table}\` VALUES\n${rows.map((r) => renderRow(table, r)).join(',\n')};\n`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Gives every table name `prefix`, as an install with a prefix names them: tables where a statement names one, and the
 * index and foreign key names Laravel derived from a table name (`users_username_unique`). Values are left alone: only
 * a backticked name right after a statement keyword, or in a key definition line, is rewritten.
 */
export function withPrefix(sql: string, prefix: string): string {
  if (!prefix) return sql;
  const tables = new Set(installTables().keys());
  for (const m of sql.matchAll(/CREATE TABLE `([^`]+)`/g)) if (m[1]) tables.add(m[1]);
  const names = [...tables].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const table = `\`(${names.join('|')})\``;
  const statement = new RegExp(
    `((?:CREATE TABLE(?: IF NOT EXISTS)?|DROP TABLE(?: IF EXISTS)?|INSERT(?: IGNORE)? INTO|REPLACE INTO|LOCK TABLES|ALTER TABLE|REFERENCES|TRUNCATE TABLE|DELETE FROM|UPDATE) )${table}`,
    'g',
  );
  const keyName = new RegExp(
    `^(\\s+(?:CONSTRAINT|(?:UNIQUE |FULLTEXT )?KEY) \`)((?:${names.join('|')})_[^\`]*\`)`,
    'gm',
  );
  return sql
    .replace(statement, (_m, head: string, name: string) => `${head}\`${prefix}${name}\``)
    .replace(keyName, `$1${prefix}$2`);
}

/** PHP's json_encode with default flags: `/` escaped, every non-ASCII character as \uXXXX (UTF-16 units). */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** PHP's addslashes: a backslash before `'`, `"`, `\` and NUL. */
export function addslashes(text: string): string {
  return text.replace(/[\\'"]/g, '\\$&').replace(/\0/g, '\\0');
}

/** `YYYY-MM-DD HH:MM:SS` in UTC (the install dump runs with TIME_ZONE '+00:00'). */
export function mysqlDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
