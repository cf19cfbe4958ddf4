import { sql, type RawBuilder } from 'kysely';

/**
 * A row limit written into the SQL text, for raw `sql` queries (builder queries get the same from the compiler,
 * db/database.ts). SQLite (3.53) re-prepares a statement whenever a value is bound to its `LIMIT ?`: the planner reads
 * the bound limit, so binding it marks the statement expired. A cached statement then pays a parse and plan on every
 * run: an empty page of topics took 12 µs a run in a tight loop and 5 µs with its limit in the text; run in the
 * middle of a page's other work, that parse and plan took 180 µs (docs/performance.md, twelfth part). A bound OFFSET
 * does not do this and stays bound. Only whole numbers reach the text; anything else is refused.
 */
export function rowLimit(limit: number): RawBuilder<number> {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a row limit must be a whole number: ${limit}`);
  return sql.lit(limit);
}
