import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInto } from '../../test/discuzq-fixtures.js';
import { ADMIN, newStorage, startTestServer, type TestServer, type TestStorage } from '../../test/harness.js';
import { buildDzqFixture, generateBulkSql, writeDumpFile, type DzqFixture } from './fixture.js';

/*
 * An import killed midway (SIGKILL, as a closed terminal or an out-of-memory kill would) and started again finishes
 * with exact counts and no duplicates: each batch commits with its progress row, the next run starts after it.
 */

const REPO = path.resolve(import.meta.dirname, '../../../../..');
const BULK = { threads: 3000, postsPerThread: 5, users: 40 };

let dir: string;
let fixture: DzqFixture;
let dump: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dzq-resume-'));
  fixture = await buildDzqFixture(dir);
  dump = path.join(dir, 'big.sql');
  async function* all(): AsyncGenerator<string> {
    yield fixture.sql;
    yield* generateBulkSql(BULK);
  }
  await writeDumpFile(dump, all(), false);
}, 60_000);

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** How many rows of the posts table the killed run had committed (read from outside, as another process). */
async function committedPosts(storage: TestStorage): Promise<{ read: number; done: number } | undefined> {
  const query = 'select read_rows as "read", done from import_progress where source_table = \'posts\'';
  if (!process.env.DATABASE_URL) {
    const file = path.join(storage.dataDir, 'luntan.sqlite');
    const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(query).get() as { read: number; done: number } | undefined;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path="${storage.schema}"`,
  });
  await client.connect();
  try {
    return (await client.query<{ read: number; done: number }>(query)).rows[0];
  } finally {
    await client.end();
  }
}

describe('an import killed midway', () => {
  let t: TestServer;

  afterAll(async () => {
    await t?.close();
  });

  it('resumes after the last batch that landed and ends with exact counts', async () => {
    const storage = newStorage();
    // The forum exists (migrated, with its first administrator) before the import starts, as after `npm start`.
    await (await startTestServer({ storage })).close({ keep: true });

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=source',
        'packages/server/src/scripts/import-discuzq.ts',
        '--from',
        dump,
        '--storage',
        fixture.storageDir,
        '--report',
        path.join(dir, 'killed.txt'),
      ],
      {
        cwd: REPO,
        env: {
          ...process.env,
          DATA_DIR: storage.dataDir,
          ...(storage.schema ? { DATABASE_SCHEMA: storage.schema } : {}),
          ADMIN_USERNAME: ADMIN.username,
          ADMIN_PASSWORD: ADMIN.password,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    // Killed once some batches of posts have committed and others have not.
    let killedAt: { read: number; done: number } | undefined;
    for (let i = 0; i < 1200 && child.exitCode === null; i += 1) {
      const progress = await committedPosts(storage).catch(() => undefined);
      if (progress && progress.read >= 2000 && progress.done === 0) {
        child.kill('SIGKILL');
        killedAt = progress;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await exited;
    expect(killedAt, `the import was not caught midway: ${stderr.slice(-2000)}`).toBeDefined();

    t = await startTestServer({ storage });
    const report = await importInto(t, dump, { storageDir: fixture.storageDir });
    expect(report.resumed).toBe(true);
    const posts = report.tables.find((x) => x.table === 'posts')!;
    const bulkPosts = BULK.threads * BULK.postsPerThread;
    const sourcePosts = fixture.expect.posts.total + fixture.expect.orphans.posts.length + bulkPosts;
    expect(posts.read).toBe(sourcePosts);
    expect(posts.written).toBe(fixture.expect.posts.total + bulkPosts);

    const db = t.app.ctx.db;
    const n = async (table: 'posts' | 'threads' | 'postLikes' | 'users') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await n('posts')).toBe(fixture.expect.posts.total + bulkPosts);
    expect(await n('threads')).toBe(fixture.expect.threads.total + BULK.threads);
    expect(await n('users')).toBe(fixture.expect.users.total + BULK.users);
    expect(await n('postLikes')).toBe(fixture.expect.likes + Math.ceil(bulkPosts / 3));
    // Counters come from the rows: a bulk thread has postsPerThread - 1 replies.
    const thread = await db
      .selectFrom('threads')
      .select(['postCount', 'firstPostId'])
      .where('id', '=', 1001)
      .executeTakeFirstOrThrow();
    expect(thread.postCount).toBe(BULK.postsPerThread - 1);
    expect(thread.firstPostId).toBe(1001);
  }, 240_000);
});
