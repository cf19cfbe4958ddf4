/**
 * A child process for db/sqlite-processes.test.ts: opens the forum's SQLite file as the server does and runs
 * read-then-write transactions on a counter, as busy requests of another process would. Prints `ready`, waits for a
 * line on stdin (so that every process starts at once), then prints one JSON line: {"done":n,"busy":n}.
 * Mode `server` opens the database through openDatabase (begin immediate); mode `deferred` uses Kysely's own
 * SQLite dialect (plain begin), to show what the test would catch. In mode `deferred` the first transaction, after
 * its read, prints `read` and waits for another line, so that the processes' transactions surely overlap (with
 * `begin immediate` they cannot: the others wait at their begin).
 */
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { openDatabase } from '../db/database.js';

const [dataDir = '', roundsText = '50', mode = 'server'] = process.argv.slice(2);
const rounds = Number(roundsText);

async function open(): Promise<{ db: Kysely<unknown>; close(): Promise<void> }> {
  if (mode === 'server') {
    const database = await openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined });
    return { db: database.db as unknown as Kysely<unknown>, close: () => database.destroy() };
  }
  const sqlite = new SqliteDatabase(path.join(dataDir, 'luntan.sqlite'));
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, close: () => db.destroy() };
}

const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const nextLine = () => lines.next();

const { db, close } = await open();
process.stdout.write('ready\n');
await nextLine();

let done = 0;
let busy = 0;
for (let i = 0; i < rounds; i += 1) {
  try {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select n from counter where id = 1`.execute(trx);
      if (mode === 'deferred' && i === 0) {
        process.stdout.write('read\n');
        await nextLine();
      }
      // Another process reads or writes meanwhile (a request awaiting something inside its transaction).
      await sleep(1 + Math.floor(Math.random() * 2));
      await sql`update counter set n = ${rows[0]!.n + 1} where id = 1`.execute(trx);
    });
    done += 1;
  } catch (err) {
    if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
    busy += 1;
  }
  // Requests do not arrive back to back.
  await sleep(Math.floor(Math.random() * 3));
}
await close();
process.stdout.write(`${JSON.stringify({ done, busy })}\n`);
input.close();
process.stdin.destroy();
