/*
 * A Discuz! Q database read from a mysqldump / MariaDB dump file (.sql, or gzipped). The dump is streamed once through
 * the parser and its rows staged into a throwaway SQLite file (one table per source table, rowid = dump order, an
 * index on the primary key), so the importer can then page through any table in key order, as from a live server,
 * without the dump ever being held in memory.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import SqliteDatabase from 'better-sqlite3';
import { DumpParser, type DumpHandler, type DumpTable } from './dump-parser.js';
import { SourceError, type DzqRow, type DzqSource, type DzqValue } from './source.js';

export interface DumpSourceOptions {
  /** Where the staging database is written (default: the system's temporary folder); it needs about the dump's size. */
  tempDir?: string;
  /** Called as the file is read: bytes of the file (compressed, for .gz) read so far, and its size. */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

type Encoding = 'plain' | 'gzip' | 'utf16le';

/** Rows staged between commits: one transaction per few thousand rows keeps SQLite fast without a giant journal. */
const ROWS_PER_COMMIT = 20_000;

export async function openDumpSource(file: string, options: DumpSourceOptions = {}): Promise<DzqSource> {
  const { size, encoding } = await inspect(file);
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'luntan-dzq-'));
  let staging: Staging | undefined;
  try {
    staging = new Staging(join(dir, 'staging.sqlite'));
    await stage(file, encoding, size, staging, options.onProgress);
    staging.finish();
    return new DumpSource(staging, dir);
  } catch (error) {
    staging?.db.close();
    await rm(dir, { recursive: true, force: true });
    if (error instanceof SourceError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const gzipBroken = encoding === 'gzip' && (error as { code?: unknown }).code?.toString().startsWith('Z_');
    throw new SourceError(
      gzipBroken ? 'bad-dump' : 'read',
      gzipBroken ? `the gzip data in ${file} is damaged: ${message}` : `cannot read ${file}: ${message}`,
      { cause: error },
    );
  }
}

/** The file's size and how its bytes are wrapped, from its first bytes (not its name). */
async function inspect(file: string): Promise<{ size: number; encoding: Encoding }> {
  let size: number;
  const head = Buffer.alloc(6);
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a regular file');
    size = info.size;
    const handle = await open(file, 'r');
    try {
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SourceError('read', `cannot read ${file}: ${message}`, { cause: error });
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return { size, encoding: 'gzip' };
  // Windows PowerShell's `mysqldump > file` writes UTF-16 with a byte order mark.
  if (head[0] === 0xff && head[1] === 0xfe) return { size, encoding: 'utf16le' };
  const archive = [
    { magic: [0x50, 0x4b, 0x03, 0x04], name: 'a zip archive' },
    { magic: [0x42, 0x5a, 0x68], name: 'bzip2-compressed' },
    { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], name: 'xz-compressed' },
    { magic: [0x28, 0xb5, 0x2f, 0xfd], name: 'zstd-compressed' },
    { magic: [0x37, 0x7a, 0xbc, 0xaf], name: 'a 7z archive' },
  ].find(({ magic }) => magic.every((byte, i) => head[i] === byte));
  if (archive) {
    throw new SourceError('not-a-dump', `${file} is ${archive.name}: extract the .sql file from it (or gzip it) first`);
  }
  return { size, encoding: 'plain' };
}

async function stage(
  file: string,
  encoding: Encoding,
  size: number,
  staging: Staging,
  onProgress: DumpSourceOptions['onProgress'],
): Promise<void> {
  const parser = new DumpParser(staging);
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  let chunks: AsyncIterable<Buffer> = input;
  if (encoding === 'gzip') {
    const gunzip = createGunzip();
    input.on('error', (error) => gunzip.destroy(error));
    chunks = input.pipe(gunzip);
  } else if (encoding === 'utf16le') {
    chunks = utf16ToUtf8(input);
  }
  let reported = -1;
  try {
    staging.db.exec('BEGIN');
    for await (const chunk of chunks) {
      parser.write(chunk);
      if (staging.uncommitted >= ROWS_PER_COMMIT) staging.commit();
      if (onProgress && input.bytesRead !== reported) {
        reported = input.bytesRead;
        onProgress(reported, size);
      }
    }
    parser.end();
    staging.commit();
    staging.db.exec('COMMIT');
  } finally {
    input.destroy();
  }
  if (onProgress && reported !== size) onProgress(size, size);
}

async function* utf16ToUtf8(source: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const decoder = new StringDecoder('utf16le');
  let first = true;
  for await (const chunk of source) {
    let text = decoder.write(chunk);
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    yield Buffer.from(text, 'utf8');
  }
  yield Buffer.from(decoder.end(), 'utf8');
}

interface StagedTable {
  def: DumpTable;
  sqlName: string;
  insert: SqliteDatabase.Statement<DzqValue[]>;
  count: number;
}

class Staging implements DumpHandler {
  readonly db: SqliteDatabase.Database;
  readonly tables = new Map<string, StagedTable>();
  uncommitted = 0;
  private made = 0;

  constructor(path: string) {
    this.db = new SqliteDatabase(path);
    // A scratch file rebuilt from the dump on every run: durability buys nothing here.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
  }

  table(def: DumpTable): void {
    const old = this.tables.get(def.name);
    if (old) this.db.exec(`DROP TABLE ${old.sqlName}`); // the same table again, as a dump of several databases has
    const sqlName = `t${this.made++}`;
    // Columns are named by position (c0, c1...) so no MySQL name can clash with SQLite's; declared without a type so
    // SQLite stores each value as given (text stays text, numbers stay numbers).
    const columns = def.columns.map((c, i) => `c${i}${c.caseInsensitive ? ' COLLATE NOCASE' : ''}`);
    this.db.exec(`CREATE TABLE ${sqlName} (${columns.join(', ') || 'c0'})`);
    const insert = this.db.prepare<DzqValue[]>(
      `INSERT INTO ${sqlName} (${def.columns.map((_, i) => `c${i}`).join(', ')}) VALUES (${def.columns.map(() => '?').join(', ')})`,
    );
    this.tables.set(def.name, { def, sqlName, insert, count: 0 });
  }

  row(table: string, values: DzqValue[]): void {
    const staged = this.tables.get(table)!;
    staged.insert.run(...values);
    staged.count++;
    this.uncommitted++;
  }

  commit(): void {
    if (this.uncommitted === 0) return;
    this.db.exec('COMMIT');
    this.db.exec('BEGIN');
    this.uncommitted = 0;
  }

  /** Indexes the primary keys once all rows are in (cheaper than keeping them up to date while inserting). */
  finish(): void {
    for (const staged of this.tables.values()) {
      const exprs = keyExpressions(staged.def, staged.def.primaryKey);
      if (exprs.length > 0)
        this.db.exec(`CREATE INDEX ${staged.sqlName}_key ON ${staged.sqlName} (${exprs.join(', ')})`);
    }
    this.db.pragma('optimize');
  }
}

/** How a key column is ordered: DECIMAL is kept as text, so it is compared as a number explicitly, as MySQL does. */
function keyExpressions(def: DumpTable, key: readonly string[]): string[] {
  return key.map((name) => {
    const at = def.columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());
    if (at < 0) throw new SourceError('no-table', `table ${def.name} has no column ${name}`);
    return def.columns[at]!.kind === 'decimal' ? `CAST(c${at} AS REAL)` : `c${at}`;
  });
}

class DumpSource implements DzqSource {
  private closed = false;

  constructor(
    private readonly staging: Staging,
    private readonly dir: string,
  ) {}

  private staged(table: string): StagedTable {
    if (this.closed) throw new Error('the dump source is closed');
    const staged = this.staging.tables.get(table);
    if (!staged) throw new SourceError('no-table', `the dump has no table ${table}`);
    return staged;
  }

  async tableNames(): Promise<string[]> {
    // Sorted as the MySQL source sorts them, so both list tables alike.
    return [...this.staging.tables.keys()].sort();
  }

  async columns(table: string): Promise<string[]> {
    return this.staged(table).def.columns.map((c) => c.name);
  }

  async count(table: string): Promise<number> {
    return this.staged(table).count;
  }

  async *batches(
    table: string,
    options: { key: readonly string[]; after?: readonly DzqValue[] | null; size: number },
  ): AsyncIterable<DzqRow[]> {
    const { def, sqlName } = this.staged(table);
    const names = def.columns.map((c) => c.name);
    const columns = names.map((_, i) => `c${i}`).join(', ');
    const select = `SELECT ${columns} FROM ${sqlName}`;
    const toRow = (values: DzqValue[]): DzqRow => Object.fromEntries(names.map((name, i) => [name, values[i] ?? null]));
    const db = this.staging.db;

    if (options.key.length === 0) {
      // No key: dump order, by rowid (which the caller never sees, so such a read cannot resume).
      const page = db
        .prepare<[number, number]>(`SELECT rowid, ${columns} FROM ${sqlName} WHERE rowid > ? ORDER BY rowid LIMIT ?`)
        .raw(true);
      let last = 0;
      for (;;) {
        const rows = page.all(last, options.size) as [number, ...DzqValue[]][];
        if (rows.length === 0) return;
        last = rows.at(-1)![0];
        yield rows.map((r) => toRow(r.slice(1) as DzqValue[]));
        if (rows.length < options.size) return;
      }
    }

    const exprs = keyExpressions(def, options.key);
    const keyAt = options.key.map((k) => names.findIndex((n) => n.toLowerCase() === k.toLowerCase()));
    const params = keyAt.map((at) => (def.columns[at]!.kind === 'decimal' ? 'CAST(? AS REAL)' : '?'));
    const order = `ORDER BY ${exprs.join(', ')} LIMIT ?`;
    const first = db.prepare<[number]>(`${select} ${order}`).raw(true);
    const next = db
      .prepare<DzqValue[]>(`${select} WHERE (${exprs.join(', ')}) > (${params.join(', ')}) ${order}`)
      .raw(true);
    let cursor = options.after && options.after.length > 0 ? [...options.after] : null;
    if (cursor && cursor.length !== keyAt.length)
      throw new Error(`after has ${cursor.length} values for a key of ${keyAt.length}`);
    for (;;) {
      if (this.closed) throw new Error('the dump source is closed');
      const rows = (cursor ? next.all(...cursor, options.size) : first.all(options.size)) as DzqValue[][];
      if (rows.length === 0) return;
      yield rows.map(toRow);
      if (rows.length < options.size) return;
      const last = rows.at(-1)!;
      cursor = keyAt.map((at) => last[at] ?? null);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.staging.db.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
