import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  assertKey,
  contentTypeOfKey,
  type ByteRange,
  type FileStore,
  type StoredObjectInfo,
  type StoredObjectStream,
} from './file-store.js';

/** Files under one folder (DATA_DIR): the key `uploads/a/b.png` is DATA_DIR/uploads/a/b.png, as sites always had. */
export class DiskFileStore implements FileStore {
  readonly kind = 'disk';

  constructor(readonly root: string) {}

  /** The file's path on this machine. */
  pathOf(key: string): string {
    return path.join(this.root, ...assertKey(key).split('/'));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written beside and renamed: a reader never sees half a file.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    try {
      const s = await fs.stat(this.pathOf(key));
      if (!s.isFile()) return null;
      return {
        size: s.size,
        etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`,
        contentType: contentTypeOfKey(key),
        lastModified: s.mtime,
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObjectStream | null> {
    const info = await this.stat(key);
    if (!info) return null;
    const stream = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return { stream, info };
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix = ''): AsyncIterable<{ key: string; size: number }> {
    // The folder to walk is the prefix's last whole segment; keys are then filtered by the whole prefix.
    const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    yield* this.walk(base ? path.join(this.root, ...base.split('/')) : this.root, base, prefix);
  }

  private async *walk(dir: string, keyDir: string, prefix: string): AsyncIterable<{ key: string; size: number }> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      const key = keyDir ? `${keyDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || key.startsWith(prefix))
          yield* this.walk(path.join(dir, entry.name), key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix) && !entry.name.endsWith('.tmp')) {
        yield { key, size: (await fs.stat(path.join(dir, entry.name))).size };
      }
    }
  }

  async signedUrl(): Promise<string | null> {
    return null;
  }

  async close(): Promise<void> {}
}

const isMissing = (err: unknown) =>
  (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR';
