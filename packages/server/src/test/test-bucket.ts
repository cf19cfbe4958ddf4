import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { parseStorageUrl } from '../config.js';
import { S3FileStore } from '../core/storage/index.js';

/** A local S3-compatible server (s3rver) with one empty bucket, for tests of STORAGE_URL. */
export interface TestBucket {
  /** What STORAGE_URL is set to for the server under test. */
  storageUrl: string;
  bucket: string;
  /** The bucket seen directly, to check its objects. */
  store: S3FileStore;
  /** Every object's key and size. */
  objects(prefix?: string): Promise<Map<string, number>>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

/** s3rver checks signatures against its one fixed key pair. */
const KEY = 'S3RVER';

export async function startTestBucket(bucket = 'luntan-test'): Promise<TestBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = encodeURIComponent(`http://127.0.0.1:${port}`);
  const storageUrl = `s3://${KEY}:${KEY}@${bucket}?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true`;
  const settings = parseStorageUrl(storageUrl);
  if (settings.kind !== 's3') throw new Error('unreachable');
  const store = new S3FileStore(settings);
  return {
    storageUrl,
    bucket,
    store,
    async objects(prefix = '') {
      const found = new Map<string, number>();
      for await (const o of store.list(prefix)) found.set(o.key, o.size);
      return found;
    },
    async close() {
      await store.close();
      // Clients may still hold keep-alive connections: closing waits for none of them.
      server.httpServer?.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
