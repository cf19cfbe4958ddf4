/*
 * The statement half of reading a dump: follows CREATE TABLE (column names and types, primary key) and
 * INSERT/REPLACE ... VALUES, handing each row to a handler as soon as its closing parenthesis arrives, so an extended
 * INSERT of any length never sits in memory whole. Every other statement (SET, LOCK, DROP, views, routines) is skipped.
 */
import { DumpTokenizer, type Token } from './dump-tokenizer.js';
import { SourceError, type DzqValue } from './source.js';

/**
 * How a column's values are typed, taken from its CREATE TABLE type so a row reads as mysql2 would return it:
 * integers as numbers, DECIMAL as its text, FLOAT/DOUBLE as numbers, BIT as a number.
 */
export type ColumnKind = 'integer' | 'decimal' | 'float' | 'bit' | 'text' | 'other';

export interface DumpColumn {
  name: string;
  kind: ColumnKind;
  /** Compared ignoring ASCII case, as under MySQL's default `_ci` collations: keyset order must match the server's. */
  caseInsensitive: boolean;
}

export interface DumpTable {
  name: string;
  columns: DumpColumn[];
  /** Column names, empty when the table has none. */
  primaryKey: string[];
}

export interface DumpHandler {
  table(table: DumpTable): void;
  /** `values` holds one entry per column of the table, in the table's column order. */
  row(table: string, values: DzqValue[]): void;
}

const KIND_OF_TYPE: Record<string, ColumnKind> = {};
for (const t of ['tinyint', 'smallint', 'mediumint', 'middleint', 'int', 'integer', 'bigint', 'year', 'serial'])
  KIND_OF_TYPE[t] = 'integer';
for (const t of ['int1', 'int2', 'int3', 'int4', 'int8', 'bool', 'boolean']) KIND_OF_TYPE[t] = 'integer';
for (const t of ['decimal', 'dec', 'numeric', 'fixed']) KIND_OF_TYPE[t] = 'decimal';
for (const t of ['float', 'double', 'real', 'float4', 'float8']) KIND_OF_TYPE[t] = 'float';
KIND_OF_TYPE.bit = 'bit';
for (const t of ['char', 'varchar', 'character', 'nchar', 'nvarchar', 'national', 'varchar2', 'long'])
  KIND_OF_TYPE[t] = 'text';
for (const t of ['tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set', 'json', 'uuid', 'inet4', 'inet6'])
  KIND_OF_TYPE[t] = 'text';

/** Words that open a key or constraint inside CREATE TABLE (...), not a column. */
const NOT_A_COLUMN = new Set([
  'PRIMARY',
  'KEY',
  'INDEX',
  'UNIQUE',
  'FULLTEXT',
  'SPATIAL',
  'FOREIGN',
  'CHECK',
  'CONSTRAINT',
  'PERIOD',
]);
/** How a dump's first statement may begin; anything else means the file is not one. */
const FIRST_WORDS = new Set([
  'SET',
  'DROP',
  'CREATE',
  'INSERT',
  'REPLACE',
  'LOCK',
  'UNLOCK',
  'USE',
  'START',
  'BEGIN',
  'ALTER',
  'COMMIT',
  'SELECT',
]);
/** Before the first CREATE TABLE a text that is not SQL could hold an unclosed quote: give up on it early. */
const MAX_TOKEN_BEFORE_FIRST_TABLE = 16 << 20;

type State = 'start' | 'skip' | 'create' | 'insert-head' | 'row-open' | 'value' | 'after-value' | 'after-row';

interface InsertTarget {
  table: DumpTable;
  /** For each value position, the index of its column in the table. */
  positions: number[];
  kinds: ColumnKind[];
}

export class DumpParser {
  private readonly tokenizer = new DumpTokenizer();
  private readonly tables = new Map<string, DumpTable>();
  private readonly emit = (token: Token): void => this.onToken(token);
  private state: State = 'start';
  private collected: Token[] = [];
  private target: InsertTarget | null = null;
  private row: DzqValue[] = [];
  private negative = false;
  private introducer = false;
  private statements = 0;
  private started = false;

  constructor(private readonly handler: DumpHandler) {
    this.tokenizer.maxTokenBytes = MAX_TOKEN_BEFORE_FIRST_TABLE;
  }

  /** True once a CREATE TABLE has been read. */
  get sawTable(): boolean {
    return this.tables.size > 0;
  }

  write(chunk: Buffer): void {
    if (!this.started) {
      this.started = true;
      // mysqldump escapes NUL as \0, so a raw NUL byte means a binary file (an archive, a database file, an image).
      if (chunk.subarray(0, 65536).includes(0))
        throw new SourceError('not-a-dump', 'the file holds binary data, not SQL text');
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    this.tokenizer.write(chunk, this.emit);
  }

  end(): void {
    this.tokenizer.end(this.emit);
    if (this.state !== 'start' && this.state !== 'skip' && this.state !== 'after-row') {
      throw new SourceError('bad-dump', 'the file ends in the middle of a statement: the dump looks cut short');
    }
    if (!this.sawTable) throw new SourceError('not-a-dump', 'the file holds no CREATE TABLE statement');
  }

  private fail(message: string): never {
    throw new SourceError('bad-dump', `${message} (near byte ${this.tokenizer.offset})`);
  }

  private onToken(t: Token): void {
    switch (this.state) {
      case 'start':
        if (t.kind === 'end') return;
        if (this.statements++ === 0 && (t.kind !== 'word' || !FIRST_WORDS.has(t.text.toUpperCase()))) {
          throw new SourceError('not-a-dump', 'the file does not begin with SQL statements');
        }
        this.collected = [];
        if (t.kind === 'word' && t.text.toUpperCase() === 'CREATE') this.state = 'create';
        else if (t.kind === 'word' && ['INSERT', 'REPLACE'].includes(t.text.toUpperCase())) this.state = 'insert-head';
        else this.state = 'skip';
        return;
      case 'skip':
        if (t.kind === 'end') this.state = 'start';
        return;
      case 'create':
        if (t.kind !== 'end') {
          this.collected.push(t);
          return;
        }
        this.createTable(this.collected);
        this.collected = [];
        this.state = 'start';
        return;
      case 'insert-head':
        if (t.kind === 'end') {
          this.state = 'start';
        } else if (t.kind === 'word' && ['VALUES', 'VALUE'].includes(t.text.toUpperCase())) {
          this.target = this.insertTarget(this.collected);
          this.collected = [];
          this.state = 'row-open';
        } else if (t.kind === 'word' && ['SELECT', 'SET'].includes(t.text.toUpperCase())) {
          this.state = 'skip'; // INSERT ... SELECT / SET: never written by mysqldump, nothing to stage
        } else {
          this.collected.push(t);
        }
        return;
      case 'row-open':
        if (t.kind !== 'punct' || t.text !== '(') this.fail('expected "(" to open a row');
        this.row = [];
        this.state = 'value';
        return;
      case 'value':
        this.value(t);
        return;
      case 'after-value':
        if (t.kind === 'punct' && t.text === ',') this.state = 'value';
        else if (t.kind === 'punct' && t.text === ')') this.endRow();
        else this.fail('expected "," or ")" after a value');
        return;
      case 'after-row':
        if (t.kind === 'end') this.state = 'start';
        else if (t.kind === 'punct' && t.text === ',') this.state = 'row-open';
        else if (t.kind === 'word' && t.text.toUpperCase() === 'ON')
          this.state = 'skip'; // ON DUPLICATE KEY UPDATE
        else this.fail('expected "," or the end of the statement after a row');
        return;
    }
  }

  private value(t: Token): void {
    const kind = this.target?.kinds[this.row.length] ?? 'other';
    let v: DzqValue;
    switch (t.kind) {
      case 'punct':
        if (t.text === ')' && this.row.length === 0 && !this.negative && !this.introducer) {
          this.endRow();
          return;
        }
        if (t.text !== '-' && t.text !== '+') this.fail(`unexpected "${t.text}" among the values`);
        if (t.text === '-') this.negative = !this.negative;
        return;
      case 'word': {
        const word = t.text.toUpperCase();
        if (word.startsWith('_')) {
          this.introducer = true; // `_binary '...'`, `_utf8mb4'...'`: the string that follows is the value
          return;
        }
        if (word === 'NULL' || word === 'DEFAULT') v = null;
        else if (word === 'TRUE' || word === 'FALSE') v = word === 'TRUE' ? 1 : 0;
        else this.fail(`unexpected ${t.text} among the values`);
        break;
      }
      case 'string':
        v = typedString(t.text, kind);
        break;
      case 'number':
        v = typedNumber(this.negative ? `-${t.text}` : t.text, kind);
        break;
      case 'hex':
        v = kind === 'bit' ? bytesToNumber(t.bytes) : t.bytes.toString('utf8');
        break;
      case 'bits':
        v = bitsToNumber(t.digits);
        break;
      default:
        this.fail('the statement ends inside a row');
    }
    this.row.push(v);
    this.negative = false;
    this.introducer = false;
    this.state = 'after-value';
  }

  private endRow(): void {
    const target = this.target!;
    const { table, positions } = target;
    if (this.row.length !== positions.length) {
      this.fail(`a row of ${table.name} has ${this.row.length} values for ${positions.length} columns`);
    }
    let values = this.row;
    if (positions.length !== table.columns.length || positions.some((p, i) => p !== i)) {
      // A column list that leaves some out: those take NULL (a server would apply their defaults, which we do not keep).
      values = table.columns.map(() => null);
      positions.forEach((p, i) => (values[p] = this.row[i] ?? null));
    }
    this.handler.row(table.name, values);
    this.row = [];
    this.state = 'after-row';
  }

  /** CREATE [OR REPLACE] [TEMPORARY] TABLE [IF NOT EXISTS] name (definitions) options */
  private createTable(tokens: Token[]): void {
    let i = 0;
    while (i < tokens.length && isWord(tokens[i], 'OR', 'REPLACE', 'TEMPORARY')) i++;
    if (!isWord(tokens[i], 'TABLE')) return; // a database, view, trigger or routine
    i++;
    if (isWord(tokens[i], 'IF')) i += 3; // IF NOT EXISTS
    const named = readName(tokens, i);
    if (!named) this.fail('CREATE TABLE without a table name');
    i = named.next;
    if (!isPunct(tokens[i], '(')) return; // CREATE TABLE ... LIKE / AS SELECT: no definition to read
    const { parts, next } = splitList(tokens, i);
    const tableBinary = hasBinaryCollation(tokens.slice(next));
    const columns: DumpColumn[] = [];
    let primaryKey: string[] = [];
    for (let part of parts) {
      const first = part[0];
      if (!first) continue;
      if (first.kind === 'word' && first.text.toUpperCase() === 'CONSTRAINT') {
        part = part.slice(isWord(part[1], 'PRIMARY', 'UNIQUE', 'FOREIGN', 'CHECK') ? 1 : 2);
      }
      const head = part[0];
      if (head?.kind === 'word' && NOT_A_COLUMN.has(head.text.toUpperCase())) {
        if (head.text.toUpperCase() === 'PRIMARY') {
          const open = part.findIndex((t) => isPunct(t, '('));
          if (open >= 0) primaryKey = splitList(part, open).parts.flatMap((p) => (p[0] ? [nameOf(p[0])] : []));
        }
        continue;
      }
      if (!head) continue;
      const name = nameOf(head);
      const type = part[1]?.kind === 'word' ? part[1].text.toLowerCase() : '';
      const kind = KIND_OF_TYPE[type] ?? 'other';
      const rest = part.slice(2);
      const columnCollation = collationOf(rest);
      const binary = rest.some((t) => isWord(t, 'BINARY')) || (columnCollation ?? tableBinary);
      columns.push({ name, kind, caseInsensitive: kind === 'text' && !binary });
      if (rest.some((t) => isWord(t, 'PRIMARY'))) primaryKey = [name];
    }
    const table: DumpTable = { name: named.name, columns, primaryKey };
    this.tables.set(table.name, table);
    this.tokenizer.maxTokenBytes = 1 << 30; // MySQL's own ceiling on a statement (max_allowed_packet)
    this.handler.table(table);
  }

  /** [LOW_PRIORITY|DELAYED|HIGH_PRIORITY] [IGNORE] [INTO] name [(columns)] */
  private insertTarget(tokens: Token[]): InsertTarget {
    let i = 0;
    while (isWord(tokens[i], 'LOW_PRIORITY', 'DELAYED', 'HIGH_PRIORITY', 'IGNORE', 'INTO')) i++;
    const named = readName(tokens, i);
    if (!named) this.fail('INSERT without a table name');
    i = named.next;
    const listed = isPunct(tokens[i], '(')
      ? splitList(tokens, i).parts.flatMap((p) => (p[0] ? [nameOf(p[0])] : []))
      : null;
    let table = this.tables.get(named.name);
    if (!table) {
      if (!listed) this.fail(`rows for table ${named.name} come before its CREATE TABLE`);
      table = {
        name: named.name,
        columns: listed.map((name) => ({ name, kind: 'other', caseInsensitive: false })),
        primaryKey: [],
      };
      this.tables.set(table.name, table);
      this.handler.table(table);
    }
    const columns = table.columns;
    const positions = listed
      ? listed.map((name) => {
          const at = columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());
          if (at < 0) this.fail(`rows for ${table.name} name a column ${name} it does not have`);
          return at;
        })
      : columns.map((_, at) => at);
    return { table, positions, kinds: positions.map((p) => columns[p]!.kind) };
  }
}

function isWord(t: Token | undefined, ...words: string[]): boolean {
  return t?.kind === 'word' && words.includes(t.text.toUpperCase());
}

function isPunct(t: Token | undefined, text: string): boolean {
  return t?.kind === 'punct' && t.text === text;
}

function nameOf(t: Token): string {
  return t.kind === 'word' || t.kind === 'ident' || t.kind === 'string' ? t.text : '';
}

/** A table name, `db`.`table` giving the table. */
function readName(tokens: Token[], i: number): { name: string; next: number } | null {
  const t = tokens[i];
  if (!t || (t.kind !== 'ident' && t.kind !== 'word' && t.kind !== 'string')) return null;
  if (isPunct(tokens[i + 1], '.') && tokens[i + 2]) return { name: nameOf(tokens[i + 2]!), next: i + 3 };
  return { name: t.text, next: i + 1 };
}

/** The comma-separated parts inside the parentheses opening at `open`, and the index after the closing one. */
function splitList(tokens: Token[], open: number): { parts: Token[][]; next: number } {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isPunct(t, '(')) {
      depth++;
      if (depth === 1) continue;
    } else if (isPunct(t, ')')) {
      depth--;
      if (depth === 0) return { parts, next: i + 1 };
    } else if (depth === 1 && isPunct(t, ',')) {
      parts.push([]);
      continue;
    }
    parts.at(-1)!.push(t);
  }
  return { parts, next: tokens.length };
}

/** true for a binary collation or charset, false for another one, undefined when none is named. */
function collationOf(tokens: Token[]): boolean | undefined {
  for (let i = 0; i < tokens.length; i++) {
    if (isWord(tokens[i], 'COLLATE', 'CHARSET') || (isWord(tokens[i], 'CHARACTER') && isWord(tokens[i + 1], 'SET'))) {
      let j = i + (isWord(tokens[i], 'CHARACTER') ? 2 : 1);
      if (isPunct(tokens[j], '=')) j++;
      const value = tokens[j];
      if (!value) return undefined;
      const name = nameOf(value).toLowerCase();
      if (isWord(tokens[i], 'COLLATE')) return name.endsWith('_bin') || name === 'binary';
      if (name === 'binary') return true;
    }
  }
  return undefined;
}

function hasBinaryCollation(tableOptions: Token[]): boolean {
  return collationOf(tableOptions) ?? false;
}

/** An unquoted number as mysql2 would return the column: DECIMAL (and any fraction) as text, FLOAT as a number. */
function typedNumber(literal: string, kind: ColumnKind): DzqValue {
  if (kind === 'float') return Number(literal);
  if (kind === 'decimal' || kind === 'text') return literal;
  return integerOrText(literal);
}

/** A quoted value; some tools quote numbers, which a server would store as numbers. */
function typedString(text: string, kind: ColumnKind): DzqValue {
  if (kind === 'integer' || kind === 'bit') return integerOrText(text);
  if (kind === 'float' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

function integerOrText(literal: string): DzqValue {
  if (!/^[-+]?\d+$/.test(literal)) return literal;
  const n = Number(literal);
  // Past 2^53 a number would be rounded: keep the digits, as mysql2 does with supportBigNumbers.
  return Number.isSafeInteger(n) ? n : literal;
}

function bitsToNumber(digits: string): number {
  return digits === '' ? 0 : parseInt(digits, 2);
}

function bytesToNumber(bytes: Buffer): number {
  let n = 0;
  for (const byte of bytes) n = n * 256 + byte;
  return n;
}
