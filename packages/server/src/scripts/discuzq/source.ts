/*
 * Where a Discuz! Q v3 site's rows come from: a live MySQL/MariaDB database (mysql-source.ts) or a mysqldump file
 * read as a stream (dump-source.ts). The importer sees only this interface, so both run the same mapping code.
 */

/** A column's value as a source gives it: numbers may come as numbers or as their literal text (DECIMAL always text). */
export type DzqValue = string | number | null;
export type DzqRow = Record<string, DzqValue>;

export interface DzqSource {
  /** Every table the database holds, with its prefix as stored (`pre_users`). */
  tableNames(): Promise<string[]>;
  /** The columns of a table (full name), in order. */
  columns(table: string): Promise<string[]>;
  count(table: string): Promise<number>;
  /**
   * The rows of a table (full name) ordered by `key` (its primary key columns), in batches of at most `size`, starting
   * after the key value `after` (keyset paging, so a restarted import resumes where it stopped). An empty `key` (a
   * table without a primary key) reads in storage order and cannot resume: `after` is then ignored.
   */
  batches(
    table: string,
    options: { key: readonly string[]; after?: readonly DzqValue[] | null; size: number },
  ): AsyncIterable<DzqRow[]>;
  close(): Promise<void>;
}

/**
 * Why a source could not be opened or read. `code` is for the CLI, which maps it to a line in the operator's language;
 * `message` is English detail for logs.
 */
export type SourceErrorCode =
  /** The MySQL URL cannot be parsed. */
  | 'url'
  /** The server cannot be reached: refused, unknown host, timeout, TLS failure. */
  | 'connect'
  /** The server refused the user name or password, or the user may not use that database. */
  | 'auth'
  /** The database named in the URL does not exist, or the URL names none. */
  | 'no-database'
  /** A table or column asked for is not in the source. */
  | 'no-table'
  /** The file cannot be read. */
  | 'read'
  /** The file is not a MySQL/MariaDB dump at all (no CREATE TABLE, binary data, an archive). */
  | 'not-a-dump'
  /** The file looks like a dump but is cut short or holds something the reader cannot follow. */
  | 'bad-dump'
  /** Any other failure of a query on the server. */
  | 'query';

export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SourceError';
  }
}
