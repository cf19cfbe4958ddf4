import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BackupListData } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { ADMIN, newStorage, startTestServer, type TestServer } from '../../test/harness.js';
import { startTestBucket, type TestBucket } from '../../test/test-bucket.js';
import { restoreForum } from './restore.js';

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

    // Restored elsewhere with the same bucket: the database comes back, the files are where they were.
    const target = newStorage();
    const config = loadConfig({
      DATA_DIR: target.dataDir,
      STORAGE_URL: bucket.storageUrl,
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: target.schema! } : {}),
    });
    const restored = await restoreForum(file, config, { force: false });
    expect(restored.restored.users).toBe(item!.counts!.users);
    expect(restored.files).toBe(0);
    const t2 = await startTestServer({ storage: target, env: { STORAGE_URL: bucket.storageUrl } });
    try {
      expect((await t2.app.inject({ url: '/uploads/kept/in-bucket.txt' })).body).toBe('stays in the bucket');
      await t2.login(ADMIN.username, ADMIN.password);
    } finally {
      await t2.close();
    }

    const removed = await t.post('/api/backAdmin/backups.delete', { id: item!.id }, admin);
    expect(removed.Code).toBe(0);
    expect((await bucket.objects('backups/')).size).toBe(0);
  });
});
