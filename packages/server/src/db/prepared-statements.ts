import type { PostgresPool } from 'kysely';
import type pg from 'pg';

/**
 * Named prepared statements on PostgreSQL, as pgjdbc and Npgsql make them by default. node-postgres sends every
 * statement unnamed, so the backend parses, analyses and plans it again on every execution: a thread page's five
 * statements cost PostgreSQL 1.7 ms of CPU, on the same cores as the app. Named, each connection parses a statement
 * once and PostgreSQL keeps its plan (a generic plan once it costs no more than the custom ones, after five
 * executions): 0.8 ms (docs/performance.md, "fourteenth part").
 *
 * A `select`, `insert`, `update`, `delete` or `with` statement is named after its text once the process has run that
 * text `after` times (as pgjdbc's prepareThreshold does), up to `limit` texts: each connection keeps the statements it
 * ran with their plans, about 55 kB of the backend's memory each (the pages' and lists' 58 statements: 4-5 MB more
 * for each of the pool's ten connections, measured with pg_log_backend_memory_contexts), so a statement run once (a
 * migration's, an administrator's report) is not kept, and at most `limit` are. Everything else (transactions'
 * commands, DDL) stays unnamed.
 *
 * A prepared statement's plan outlives a change of its tables: PostgreSQL plans it again, but refuses a `select *`
 * whose columns changed ("cached plan must not change result type", when another process's migration added a
 * column). That statement then runs unnamed on the same connection, which is closed when it goes back to the pool;
 * inside a transaction the error stands (the transaction is lost: the request fails once on that connection).
 *
 * Off (`DATABASE_PREPARE=off`) for a pooler that cannot carry named statements: PgBouncer in transaction mode before
 * 1.21, or without `max_prepared_statements`.
 */

/** A connection as Kysely's PostgreSQL driver uses it: a statement (or a cursor), and its return to the pool. */
interface KyselyPgClient {
  query(sql: unknown, parameters?: readonly unknown[]): Promise<pg.QueryResult>;
  release(error?: Error | boolean): void;
}

/** How many times a process runs a text before it is named, and how many texts are named at most. */
export const PREPARE_AFTER = 5;
export const PREPARED_LIMIT = 100;
/** How many texts not yet named are counted at most (the counts start again when there are more). */
const COUNTED_LIMIT = 5000;

const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|end|rollback)\b(?!\s+to\b)/i;

/** "cached plan must not change result type": the statement's columns changed since it was prepared. */
function isStalePlan(error: unknown): boolean {
  return (
    (error as { code?: unknown } | null)?.code === '0A000' && /cached plan/i.test(String((error as Error).message))
  );
}

export interface PreparedPool extends PostgresPool {
  /** How many statement texts have a name. */
  readonly named: number;
}

export function preparedStatements(
  pool: pg.Pool,
  { after = PREPARE_AFTER, limit = PREPARED_LIMIT }: { after?: number; limit?: number } = {},
): PreparedPool {
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= limit || !PREPARABLE.test(text)) return known;
    const runs = (counts.get(text) ?? 0) + 1;
    if (runs < after) {
      if (counts.size >= COUNTED_LIMIT) counts.clear();
      counts.set(text, runs);
      return undefined;
    }
    counts.delete(text);
    const name = `luntan_${names.size}`;
    names.set(text, name);
    return name;
  };
  const wrapped = new WeakMap<pg.PoolClient, KyselyPgClient>();
  const wrap = (client: pg.PoolClient): KyselyPgClient => {
    let inTransaction = false;
    let stale = false;
    return {
      async query(text: unknown, parameters?: readonly unknown[]): Promise<pg.QueryResult> {
        const values = parameters as unknown[] | undefined;
        if (typeof text !== 'string') return client.query(text as pg.QueryConfig, values);
        const name = nameOf(text);
        if (name === undefined) {
          if (BEGIN.test(text)) inTransaction = true;
          else if (END.test(text)) inTransaction = false;
          return client.query(text, values);
        }
        try {
          return await client.query({ name, text, values });
        } catch (error) {
          if (!isStalePlan(error)) throw error;
          stale = true;
          if (inTransaction) throw error;
          return client.query(text, values);
        }
      },
      release(error?: Error | boolean): void {
        // A connection holding a statement prepared for columns that changed is closed, not reused.
        client.release(error || (stale ? new Error('a prepared statement outlived its columns') : undefined));
      },
    };
  };
  return {
    // Kysely's client type overloads `query` for its cursors, which pass through unchanged.
    connect: async () => {
      const client = await pool.connect();
      let kept = wrapped.get(client);
      if (!kept) wrapped.set(client, (kept = wrap(client)));
      return kept as unknown as Awaited<ReturnType<PostgresPool['connect']>>;
    },
    end: () => pool.end(),
    get named() {
      return names.size;
    },
  };
}
