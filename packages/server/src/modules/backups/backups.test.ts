import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Code, type BackupListData, type BackupSchedule } from '@luntan/shared';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { useTestServer } from '../../test/fixture.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { fund } from '../../test/money-fixtures.js';
import { BackupError, readArchive } from './archive.js';
import { runBackup, type BackupsDeps } from './backups.service.js';
import { restoreForum } from './restore.js';

const pgUrl = process.env.DATABASE_URL;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-backup-test-'));

/** A fresh PostgreSQL database (not a schema of the tests' one): what a restore onto a new machine starts from. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `luntan_restore_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(pgUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

function depsOf(t: TestServer): BackupsDeps {
  const { ctx } = t.app;
  return { database: ctx.database, config: ctx.config, files: ctx.files };
}

/** Where a restore goes: a new DATA_DIR, and on PostgreSQL a new database with a schema named otherwise. */
async function restoreTarget(): Promise<{
  dataDir: string;
  env: Record<string, string>;
  schema: string | undefined;
  drop: () => Promise<void>;
}> {
  const dataDir = tmp();
  if (!pgUrl) return { dataDir, env: {}, schema: undefined, drop: async () => undefined };
  const db = await freshDatabase();
  const schema = `r_${randomBytes(4).toString('hex')}`;
  return { dataDir, env: { DATABASE_URL: db.url }, schema, drop: db.drop };
}

describe('backups: an archive taken while 20 writers post restores every acknowledged write', () => {
  const t = useTestServer();
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const clean of cleanups) await clean();
  });

  it('holds the same counts and wallet sum as its manifest, and every write acknowledged before it began', async () => {
    const thread = await t.buildThread();
    const writers = await Promise.all(Array.from({ length: 20 }, () => t.buildMember()));
    for (const [i, w] of writers.slice(0, 5).entries()) await fund(t, t.admin, w.id, `${10 + i}.25`);
    // A file the forum keeps on disk (storage keys under uploads/ and files/).
    await t.app.ctx.files.put('uploads/backup-test/hello.txt', Buffer.from('hello'));
    await t.app.ctx.files.put('files/backup-test/private.bin', Buffer.from([1, 2, 3]));

    const acknowledged: { id: number; at: number }[] = [];
    let stop = false;
    let refused = 0;
    const write = async (token: string, n: number) => {
      for (let i = 0; !stop; i++) {
        const res = await t.post<{ id: number }>(
          '/api/v3/posts.create',
          { id: thread.threadId, content: `writer ${n}, reply ${i}` },
          token,
        );
        if (res.Code === 0) acknowledged.push({ id: res.Data.id, at: performance.now() });
        else refused += 1;
      }
    };
    const running = writers.map((w, n) => write(w.token, n));
    // The backup begins once every writer is under way.
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 5));
    const outDir = tmp();
    cleanups.push(async () => fs.rmSync(outDir, { recursive: true, force: true }));
    const began = performance.now();
    const row = await runBackup(depsOf(t), { origin: 'cli', outDir });
    const ackedBefore = acknowledged.filter((a) => a.at < began).map((a) => a.id);
    const written = acknowledged.length;
    // Writers go on a little after it ended, then stop.
    while (acknowledged.length < written + 20) await new Promise((r) => setTimeout(r, 5));
    stop = true;
    await Promise.all(running);
    expect(refused).toBe(0);
    expect(ackedBefore.length).toBeGreaterThanOrEqual(40);

    expect(row.status).toBe('done');
    const file = path.join(outDir, row.name);
    const { manifest, entries } = await readArchive(file);
    expect(manifest.database.kind).toBe(t.app.ctx.dialect);
    expect(manifest.counts.walletCents).toBe(1025 + 1125 + 1225 + 1325 + 1425);
    expect(manifest.walletSum).toBe('61.25');
    expect(manifest.files).toEqual({ where: 'archive', count: 2, bytes: 8 });
    expect(entries).toEqual(expect.arrayContaining(['manifest.json', 'uploads/backup-test/hello.txt']));

    const target = await restoreTarget();
    cleanups.push(target.drop, async () => fs.rmSync(target.dataDir, { recursive: true, force: true }));
    const config = loadConfig({
      DATA_DIR: target.dataDir,
      ...target.env,
      ...(target.schema ? { DATABASE_SCHEMA: target.schema } : {}),
    });
    const restored = await restoreForum(file, config, { force: false });
    expect(restored.restored).toEqual(manifest.counts);
    expect(restored.files).toBe(2);

    // The restored forum runs: the administrator signs in with the same password, every acknowledged reply is there.
    const t2 = await startTestServer({ storage: { dataDir: target.dataDir, schema: target.schema }, env: target.env });
    try {
      await t2.login(ADMIN.username, ADMIN.password);
      const ids = new Set(
        (await t2.app.ctx.db.selectFrom('posts').select('id').where('threadId', '=', thread.threadId).execute()).map(
          (p) => p.id,
        ),
      );
      expect(ackedBefore.filter((id) => !ids.has(id))).toEqual([]);
      const sum = await t2.app.ctx.db
        .selectFrom('wallets')
        .select((eb) => eb.fn.sum<number>(eb('availableCents', '+', eb.ref('frozenCents'))).as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(sum.n)).toBe(6125);
      expect((await t2.app.ctx.files.read('files/backup-test/private.bin'))?.toJSON().data).toEqual([1, 2, 3]);
      // The archive's own row, running when the snapshot was taken, is done in the restored forum.
      const list = await t2.get<BackupListData>(
        '/api/backAdmin/backups',
        await t2.login(ADMIN.username, ADMIN.password),
      );
      expect(list.Data.backups.find((b) => b.name === row.name)?.status).toBe('done');
    } finally {
      await t2.close({ keep: true });
    }
    // The archive is packed on the event loop the 20 writers keep busy: on a slow 2-core machine that alone took
    // 22 of this test's 29 s (the snapshot 2.7 s), too near the 30 s every test gets.
  }, 90_000);
});

describe('backups: restore refuses what it must, and writes nothing then', () => {
  const t = useTestServer();
  let archive = '';
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const dir = () => {
    const d = tmp();
    dirs.push(d);
    return d;
  };

  /** A restore that must be refused: into `dataDir` (on PostgreSQL into `schema`, by default one that is empty). */
  const refusal = async (file: string, dataDir: string, schema = `e_${randomBytes(4).toString('hex')}`) => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...(pgUrl ? { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema } : {}),
    });
    try {
      await restoreForum(file, config, { force: false });
    } catch (error) {
      expect(error).toBeInstanceOf(BackupError);
      return error as BackupError;
    }
    throw new Error('the restore was not refused');
  };

  it('a damaged, a foreign and a missing archive are named, and nothing is written', async () => {
    const made = dir();
    const row = await runBackup(depsOf(t.current), { origin: 'cli', outDir: made });
    archive = path.join(made, row.name);
    const bytes = fs.readFileSync(archive);
    const outDir = dir();

    const cut = path.join(outDir, 'cut.tar.gz');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const empty = dir();
    const damaged = await refusal(cut, empty);
    expect(damaged.reason).toBe('damaged');
    expect(damaged.message).toContain('cut.tar.gz');
    expect(fs.readdirSync(empty)).toEqual([]);

    // A byte of the database changed inside an archive that is still a valid tar.gz: the checksum finds it.
    const tarBytes = gunzipSync(bytes);
    const at = tarBytes.indexOf(Buffer.from('SQLite format 3'));
    const dump = tarBytes.indexOf(Buffer.from('PGDMP'));
    const where = (at >= 0 ? at : dump) + 2000;
    tarBytes[where] = tarBytes[where]! ^ 0xff;
    const { gzipSync } = await import('node:zlib');
    const flipped = path.join(outDir, 'flipped.tar.gz');
    fs.writeFileSync(flipped, gzipSync(tarBytes));
    const empty2 = dir();
    const changed = await refusal(flipped, empty2);
    expect(changed.reason).toBe('damaged');
    expect(changed.message).toContain('checksum');
    expect(fs.readdirSync(empty2).filter((f) => !f.startsWith('.'))).toEqual([]);

    const foreign = path.join(outDir, 'foreign.tar.gz');
    const tar = await import('tar');
    fs.writeFileSync(path.join(outDir, 'notes.txt'), 'not a forum');
    await tar.create({ gzip: true, file: foreign, cwd: outDir }, ['notes.txt']);
    expect((await refusal(foreign, dir())).reason).toBe('foreign');

    expect((await refusal(path.join(outDir, 'nothing-here.tar.gz'), dir())).reason).toBe('not-found');
  });

  it('refuses a target that holds a forum unless forced', async () => {
    // The test server's own storage holds its forum.
    const refused = await refusal(archive, t.storage.dataDir, t.storage.schema);
    expect(refused.reason).toBe('not-empty');
    expect(refused.message).toContain('--force');
  });

  it('refuses an archive of the other database kind', async () => {
    const config = loadConfig({ DATA_DIR: dir() });
    // A SQLite archive with DATABASE_URL set, a PostgreSQL one without: refused before anything is opened.
    const other = { ...config, databaseUrl: pgUrl ? undefined : 'postgres://nobody@127.0.0.1:1/none' };
    const error = await restoreForum(archive, other, { force: false }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BackupError);
    expect((error as BackupError).reason).toBe('kind');
  });
});

describe('backups: the back office', () => {
  const t = useTestServer();

  async function list(): Promise<BackupListData> {
    const res = await t.get<BackupListData>('/api/backAdmin/backups', t.admin);
    expect(res.Code, res.Message).toBe(0);
    return res.Data;
  }

  async function waitDone(id: number) {
    for (;;) {
      const item = (await list()).backups.find((b) => b.id === id)!;
      if (item.status !== 'running') return item;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('is for administrators only', async () => {
    const member = await t.buildMember();
    expect((await t.get('/api/backAdmin/backups', member.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.post('/api/backAdmin/backups', {}, member.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.get('/api/backAdmin/backups')).Code).not.toBe(0);
    const download = await t.app.inject({ url: '/api/backAdmin/backups/download?id=1' });
    expect(download.headers['content-type']).toContain('application/json');
  });

  it('makes one now, lists it with its manifest, downloads and deletes it', async () => {
    const made = await t.post<{ id: number }>('/api/backAdmin/backups', {}, t.admin);
    expect(made.Code, made.Message).toBe(0);
    const item = await waitDone(made.Data.id);
    expect(item).toMatchObject({ status: 'done', origin: 'manual', location: 'disk', available: true });
    expect(item.counts?.users).toBeGreaterThan(0);
    expect(item.walletSum).toBe('0.00');

    const download = await t.app.inject({
      url: `/api/backAdmin/backups/download?id=${item.id}`,
      headers: { authorization: `Bearer ${t.admin}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${item.name}"`);
    expect(download.rawPayload.length).toBe(item.bytes);
    const copy = path.join(tmp(), item.name);
    fs.writeFileSync(copy, download.rawPayload);
    expect((await readArchive(copy)).manifest.name).toBe(item.name);

    const removed = await t.post('/api/backAdmin/backups.delete', { id: item.id }, t.admin);
    expect(removed.Code, removed.Message).toBe(0);
    expect((await list()).backups.some((b) => b.id === item.id)).toBe(false);
    expect(fs.existsSync(path.join(t.storage.dataDir, 'backups', item.name))).toBe(false);
    expect((await t.post('/api/backAdmin/backups.delete', { id: item.id }, t.admin)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    const gone = await t.call('GET', `/api/backAdmin/backups/download?id=${item.id}`, { token: t.admin });
    expect(gone.body.Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('refuses a second backup while one runs (in any process), and takes over a lock whose process died', async () => {
    const now = new Date().toISOString();
    const { id } = await t.app.ctx.db
      .insertInto('backups')
      .values({
        name: 'elsewhere.tar.gz',
        status: 'running',
        origin: 'manual',
        location: 'disk',
        createdAt: now,
        heartbeatAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await t.post('/api/backAdmin/backups', {}, t.admin);
    expect(refused.Code).toBe(Code.RESOURCE_IN_USE);
    expect(refused.Message).toBe('另一个备份正在进行，请等它完成后再试');
    const english = await t.call('POST', '/api/backAdmin/backups', {
      token: t.admin,
      body: {},
      headers: { cookie: 'locale=en' },
    });
    expect(english.body.Message).toBe('Another backup is being made: try again once it is done');
    expect((await t.post('/api/backAdmin/backups.delete', { id }, t.admin)).Code).toBe(Code.RESOURCE_IN_USE);
    expect((await list()).backups.filter((b) => b.status === 'running')).toHaveLength(1);

    // Its process stopped beating five minutes ago: the lock is free.
    await t.app.ctx.db
      .updateTable('backups')
      .set({ heartbeatAt: new Date(Date.now() - 5 * 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    const made = await t.post<{ id: number }>('/api/backAdmin/backups', {}, t.admin);
    expect(made.Code, made.Message).toBe(0);
    expect((await waitDone(made.Data.id)).status).toBe('done');
    const old = (await list()).backups.find((b) => b.id === id)!;
    expect(old.status).toBe('failed');
    expect(old.error).toContain('interrupted');
  });

  it('keeps a daily schedule: refuses a wrong time, makes one a day, keeps the newest N', async () => {
    const bad = await t.post('/api/backAdmin/backups.schedule', { enabled: true, time: '25:00', keep: 2 }, t.admin);
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).toContain('03:00');
    expect(
      (await t.post('/api/backAdmin/backups.schedule', { enabled: true, time: '01:00', keep: 0 }, t.admin)).Code,
    ).toBe(Code.INVALID_PARAMETER);
    const saved = await t.post<BackupSchedule>(
      '/api/backAdmin/backups.schedule',
      { enabled: true, time: '00:00', keep: 2 },
      t.admin,
    );
    expect(saved.Data).toEqual({ enabled: true, time: '00:00', keep: 2 });
    expect((await list()).schedule).toEqual(saved.Data);

    const scheduler = t.app.ctx.backups;
    const day = 24 * 3600_000;
    const today = new Date();
    expect(await scheduler.tick(t.app.log, today)).toBe(true);
    // Once a day: asked again the same day, nothing more.
    expect(await scheduler.tick(t.app.log, today)).toBe(false);
    expect(await scheduler.tick(t.app.log, new Date(today.getTime() + day))).toBe(true);
    expect(await scheduler.tick(t.app.log, new Date(today.getTime() + 2 * day))).toBe(true);
    const scheduled = (await list()).backups.filter((b) => b.origin === 'schedule');
    expect(scheduled).toHaveLength(2);
    const kept = fs.readdirSync(path.join(t.storage.dataDir, 'backups')).filter((f) => f.endsWith('.tar.gz'));
    for (const b of scheduled) expect(kept).toContain(b.name);

    await t.post('/api/backAdmin/backups.schedule', { enabled: false, time: '00:00', keep: 2 }, t.admin);
    expect(await scheduler.tick(t.app.log, new Date(today.getTime() + 3 * day))).toBe(false);
  });
});
