import { createRequire } from 'node:module';
import type * as Pg from 'pg';

const require = createRequire(import.meta.url);
let loaded: typeof Pg | null = null;

/**
 * node-postgres, loaded the first time a PostgreSQL database is opened (DATABASE_URL): a forum on SQLite never loads
 * it (a few MB of a process's memory; docs/performance.md, "eleventh part"). Synchronous, as the driver is CommonJS.
 */
export function pgDriver(): typeof Pg {
  if (!loaded) {
    const pg = require('pg') as typeof Pg;
    // COUNT(*) and other int8 values arrive as strings from pg; every count we keep fits a JS number.
    pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
    loaded = pg;
  }
  return loaded;
}
