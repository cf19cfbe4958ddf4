/*
 * A Discuz! Q database read live from MySQL/MariaDB with mysql2. Values come back as the dump source gives them:
 * numbers as numbers (text past 2^53), DECIMAL as its text, dates as their text, binary and JSON as text.
 */
import { createPool, escapeId, type Pool, type PoolOptions, type RowDataPacket, type TypeCast } from 'mysql2/promise';
import { SourceError, type DzqRow, type DzqSource, type DzqValue } from './source.js';

/** mysql2's error codes (Node's for the network ones) and what each means to an operator. */
const ERROR_CODES: Record<string, 'connect' | 'auth' | 'no-database' | 'no-table'> = {
  ECONNREFUSED: 'connect',
  ETIMEDOUT: 'connect',
  EHOSTUNREACH: 'connect',
  ENETUNREACH: 'connect',
  ECONNRESET: 'connect',
  ENOTFOUND: 'connect',
  EAI_AGAIN: 'connect',
  PROTOCOL_CONNECTION_LOST: 'connect',
  HANDSHAKE_NO_SSL_SUPPORT: 'connect',
  HANDSHAKE_SSL_ERROR: 'connect',
  ER_ACCESS_DENIED_ERROR: 'auth',
  ER_DBACCESS_DENIED_ERROR: 'auth',
  ER_NOT_SUPPORTED_AUTH_MODE: 'auth',
  ER_BAD_DB_ERROR: 'no-database',
  ER_NO_SUCH_TABLE: 'no-table',
  ER_BAD_FIELD_ERROR: 'no-table',
};

/** Reads BIT as a number and every binary value (BLOB, BINARY, GEOMETRY) as UTF-8 text, as the dump source does. */
const typeCast: TypeCast = (field, next) => {
  if (field.type === 'BIT') {
    const bytes = field.buffer();
    return bytes ? bytes.reduce((n, byte) => n * 256 + byte, 0) : null;
  }
  if (field.type === 'GEOMETRY') return field.buffer()?.toString('utf8') ?? null;
  const value: unknown = next();
  return Buffer.isBuffer(value) ? value.toString('utf8') : value;
};

/**
 * Connects to `mysql://user:password@host:port/database` (also `mariadb://`; `?socket=/path` for a Unix socket,
 * `?ssl=true` or `?ssl=no-verify` for TLS) and checks the connection before answering, so a wrong host, password or
 * database is a SourceError now rather than on the first read.
 */
export async function openMysqlSource(url: string): Promise<DzqSource> {
  const options = poolOptions(url);
  const pool = createPool(options);
  // TIMESTAMP columns are read in UTC, the zone mysqldump writes them in, so a live database and its dump agree
  // (DATETIME columns carry no zone and are unaffected). mysql2 queues this before any other query on the connection.
  pool.pool.on('connection', (connection) => {
    connection.query("SET time_zone = '+00:00'", () => undefined);
  });
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw sourceError(error, options);
  }
  return new MysqlSource(pool, options);
}

function poolOptions(url: string): PoolOptions & { host: string; database: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new SourceError('url', `not a database URL: ${url.replace(/\/\/[^@/]*@/, '//***@')}`, { cause: error });
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new SourceError('url', `a database URL must start with mysql:// (got ${parsed.protocol}//)`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database)
    throw new SourceError('no-database', 'the URL names no database: add it as the path, mysql://user@host/discuzq');
  const ssl = parsed.searchParams.get('ssl');
  const socketPath = parsed.searchParams.get('socket') ?? undefined;
  return {
    host: parsed.hostname || 'localhost',
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    database,
    socketPath,
    ssl: ssl === 'true' || ssl === 'required' ? {} : ssl === 'no-verify' ? { rejectUnauthorized: false } : undefined,
    charset: 'utf8mb4',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: false,
    // MariaDB 10.5+ marks JSON columns, which mysql2 would otherwise parse into objects.
    jsonStrings: true,
    typeCast,
    connectionLimit: 2,
    connectTimeout: 10_000,
  };
}

function sourceError(
  error: unknown,
  options: { host: string; port?: number; user?: string; database: string },
): SourceError {
  if (error instanceof SourceError) return error;
  const code = (error as { code?: unknown }).code;
  const detail = error instanceof Error ? error.message : String(error);
  const where = `${options.host}:${options.port ?? 3306}`;
  switch (typeof code === 'string' ? ERROR_CODES[code] : undefined) {
    case 'connect':
      return new SourceError(
        'connect',
        code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `cannot find the database host ${options.host}`
          : `cannot reach the database server at ${where}: ${detail}`,
        { cause: error },
      );
    case 'auth':
      return new SourceError('auth', `the database server at ${where} refused user ${options.user ?? ''}: ${detail}`, {
        cause: error,
      });
    case 'no-database':
      return new SourceError('no-database', `the server at ${where} has no database ${options.database}`, {
        cause: error,
      });
    case 'no-table':
      return new SourceError('no-table', detail, { cause: error });
    default:
      return new SourceError('query', `the database server at ${where} failed: ${detail}`, { cause: error });
  }
}

class MysqlSource implements DzqSource {
  constructor(
    private readonly pool: Pool,
    private readonly options: { host: string; port?: number; user?: string; database: string },
  ) {}

  private async query(sql: string, values: DzqValue[] = []): Promise<RowDataPacket[]> {
    try {
      const [rows] = await this.pool.query<RowDataPacket[]>(sql, values);
      return rows;
    } catch (error) {
      throw sourceError(error, this.options);
    }
  }

  async tableNames(): Promise<string[]> {
    // Views left out: a dump holds none as a table. Sorted here rather than in the server's order, so both sources
    // list tables alike.
    const rows = await this.query("SHOW FULL TABLES WHERE Table_type = 'BASE TABLE'");
    return rows.map((row) => String(Object.values(row)[0])).sort();
  }

  async columns(table: string): Promise<string[]> {
    const rows = await this.query(`SHOW COLUMNS FROM ${escapeId(table)}`);
    return rows.map((row) => String(row.Field));
  }

  async count(table: string): Promise<number> {
    const [row] = await this.query(`SELECT COUNT(*) AS n FROM ${escapeId(table)}`);
    return Number(row?.n ?? 0);
  }

  async *batches(
    table: string,
    options: { key: readonly string[]; after?: readonly DzqValue[] | null; size: number },
  ): AsyncIterable<DzqRow[]> {
    const columns = await this.columns(table);
    // The columns as the table spells them, so the cursor is read from the rows whatever case the caller used.
    const key = options.key.map((k) => {
      const column = columns.find((c) => c.toLowerCase() === k.toLowerCase());
      if (column === undefined) throw new SourceError('no-table', `table ${table} has no column ${k}`);
      return column;
    });
    const from = `SELECT * FROM ${escapeId(table)}`;

    if (key.length === 0) {
      // No key: the server's natural order, by offset (slower on big tables, and cannot resume).
      for (let offset = 0; ; offset += options.size) {
        const rows = await this.query(`${from} LIMIT ? OFFSET ?`, [options.size, offset]);
        if (rows.length === 0) return;
        yield rows.map(plainRow);
        if (rows.length < options.size) return;
      }
    }

    const ids = key.map((k) => escapeId(k));
    const order = `ORDER BY ${ids.join(', ')} LIMIT ?`;
    // With several key columns the leading `k1 >= ?` lets the server walk the index as a range: not every MySQL or
    // MariaDB version does that for a row comparison alone.
    const where =
      ids.length === 1
        ? `${ids[0]} > ?`
        : `${ids[0]} >= ? AND (${ids.join(', ')}) > (${ids.map(() => '?').join(', ')})`;
    let cursor = options.after && options.after.length > 0 ? [...options.after] : null;
    if (cursor && cursor.length !== key.length)
      throw new Error(`after has ${cursor.length} values for a key of ${key.length}`);
    for (;;) {
      const rows = cursor
        ? await this.query(`${from} WHERE ${where} ${order}`, [
            ...(ids.length === 1 ? [] : [cursor[0]!]),
            ...cursor,
            options.size,
          ])
        : await this.query(`${from} ${order}`, [options.size]);
      if (rows.length === 0) return;
      yield rows.map(plainRow);
      if (rows.length < options.size) return;
      const last = rows.at(-1)!;
      cursor = key.map((k) => (last[k] ?? null) as DzqValue);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function plainRow(row: RowDataPacket): DzqRow {
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [name, (value ?? null) as DzqValue]));
}
