import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { BackupListData } from '@luntan/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { ADMIN, newStorage, startTestServer, type TestServer } from '../../test/harness.js';
import { startTestBucket, type TestBucket } from '../../test/test-bucket.js';
import { restoreForum } from './restore.js';

/** A fresh PostgreSQL database beside the tests' one. */
async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `luntan_restore_${randomBytes(5).toString('hex')}`;
  const run = async (query: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return { url: fresh.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/** A forum whose files are in object storage: its archives go to the bucket, and hold the database only. */
describe('backups with object storage', () => {
  let bucket: TestBucket;
  let t: TestServer;
  let admin = '';

  beforeAll(async () => {
    bucket = await startTestBucket('luntan-backups');
    t = await startTestServer({ env: { STORAGE_URL: bucket.storageUrl } });
    admin = await t.login(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await t?.close();
    await bucket?.close();
  });

  it('keeps the back office’s archive in the bucket, downloads it from there and restores the database', async () => {
    await t.app.ctx.files.put('uploads/kept/in-bucket.txt', Buffer.from('stays in the bucket'));
    const made = await t.post<{ id: number }>('/api/backAdmin/backups', {}, admin);
    expect(made.Code, made.Message).toBe(0);
    let item: BackupListData['backups'][number] | undefined;
    for (;;) {
      item = (await t.get<BackupListData>('/api/backAdmin/backups', admin)).Data.backups.find(
        (b) => b.id === made.Data.id,
      );
      if (item?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(item).toMatchObject({ status: 'done', location: 'bucket', available: true, files: { where: 'bucket' } });
    const objects = await bucket.objects('backups/');
    expect(objects.get(`backups/${item!.name}`)).toBe(item!.bytes);
    // Nothing left on this machine's disk.
    expect(fs.existsSync(path.join(t.storage.dataDir, 'backups', item!.name))).toBe(false);

    const download = await t.app.inject({
      url: `/api/backAdmin/backups/download?id=${item!.id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(item!.bytes);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-bucket-backup-')), item!.name);
    fs.writeFileSync(file, download.rawPayload);

    // Restored on another machine with the same bucket (on PostgreSQL into a fresh database: the archive's schema
    // exists in this one): the database comes back, the files are where they were.
    const target = newStorage();
    const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
    const dbEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
    const config = loadConfig({
      DATA_DIR: target.dataDir,
      STORAGE_URL: bucket.storageUrl,
      ...dbEnv,
      ...(target.schema ? { DATABASE_SCHEMA: target.schema } : {}),
    });
    const restored = await restoreForum(file, config, { force: false });
    expect(restored.restored.users).toBe(item!.counts!.users);
    expect(restored.files).toBe(0);
    const t2 = await startTestServer({ storage: target, env: { STORAGE_URL: bucket.storageUrl, ...dbEnv } });
    try {
      expect((await t2.app.inject({ url: '/uploads/kept/in-bucket.txt' })).body).toBe('stays in the bucket');
      await t2.login(ADMIN.username, ADMIN.password);
    } finally {
      await t2.close({ keep: true });
      fs.rmSync(target.dataDir, { recursive: true, force: true });
      await database?.drop();
    }

    const removed = await t.post('/api/backAdmin/backups.delete', { id: item!.id }, admin);
    expect(removed.Code).toBe(0);
    expect((await bucket.objects('backups/')).size).toBe(0);
  });
});
