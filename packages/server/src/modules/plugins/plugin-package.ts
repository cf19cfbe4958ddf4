import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describeIssue, pluginManifestSchema, type PluginManifest } from '@luntan/shared';
import * as tar from 'tar-stream';
import yauzl from 'yauzl';
import { invalidField } from '../../core/errors.js';
import { msg } from '../../i18n/index.js';

/*
 * Reading an uploaded plugin package (a .zip or a .tgz) before anything is kept: size and file-count limits, every
 * path checked to stay inside the plugin's folder (no absolute paths, no `..`, no links), then plugin.json against
 * the spec's rules. Everything happens in memory; a refused package leaves no trace.
 */

/** The largest package accepted, as uploaded. */
export const PLUGIN_ARCHIVE_MAX_BYTES = 5 * 1024 * 1024;
/** At most this many files, and this many bytes once unpacked (a zip bomb stops here). */
export const PLUGIN_FILES_MAX = 200;
export const PLUGIN_UNPACKED_MAX_BYTES = 20 * 1024 * 1024;

export interface PluginPackage {
  manifest: PluginManifest;
  /** Path inside the package → content. */
  files: Map<string, Buffer>;
  /** SHA-256 over the sorted paths and contents. */
  contentHash: string;
}

const refuse = (zh: string, en: string) => invalidField('file', { zh, en });

/** A safe relative path inside the package, or null. */
export function safePath(name: string): string | null {
  const normalized = name.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized)) return null;
  const parts = normalized.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.some((p) => p === '..')) return null;
  if (!parts.every((p) => /^[A-Za-z0-9._-]+$/.test(p))) return null;
  return parts.join('/');
}

const tooBigUnpacked = () =>
  refuse('插件包解压后不能超过 20 MB', 'A plugin package may hold at most 20 MB once unpacked');

class Limits {
  count = 0;
  bytes = 0;
  add(size: number): void {
    this.count += 1;
    this.bytes += size;
    if (this.count > PLUGIN_FILES_MAX) {
      throw refuse(
        `插件包最多包含 ${PLUGIN_FILES_MAX} 个文件`,
        `A plugin package may hold at most ${PLUGIN_FILES_MAX} files`,
      );
    }
    if (this.bytes > PLUGIN_UNPACKED_MAX_BYTES) throw tooBigUnpacked();
  }
}

const outside = (name: string) =>
  refuse(
    `插件包中的文件 ${name} 指向插件目录之外，已拒绝`,
    `The package's file ${name} points outside the plugin's folder: refused`,
  );

async function readZip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(
      bytes,
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false },
      (err, z) => (err ? reject(err) : resolve(z)),
    ),
  );
  const files = new Map<string, Buffer>();
  const limits = new Limits();
  return new Promise((resolve, reject) => {
    const fail = (err: unknown) => {
      zip.close();
      reject(err);
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(files));
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      const name = safePath(entry.fileName);
      // A symbolic link (unix mode 0o120000 in the high bits) could point anywhere.
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      if (!name || mode === 0o120000) return fail(outside(entry.fileName));
      try {
        limits.add(entry.uncompressedSize);
      } catch (err) {
        return fail(err);
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err) return fail(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', fail);
        stream.on('end', () => {
          files.set(name, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

async function readTar(bytes: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const limits = new Limits();
  const extract = tar.extract();
  // The first refusal is kept and the rest of the archive drained: tearing the stream down mid-entry leaves errors
  // nobody listens to.
  let refusal: unknown = null;
  const done = new Promise<Map<string, Buffer>>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const skip = () => {
        stream.on('end', next);
        stream.resume();
      };
      if (refusal !== null || header.type === 'directory') return skip();
      const name = safePath(header.name);
      if (header.type !== 'file' || !name) {
        refusal = outside(header.name);
        return skip();
      }
      try {
        limits.add(header.size ?? 0);
      } catch (err) {
        refusal = err;
        return skip();
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        files.set(name, Buffer.concat(chunks));
        next();
      });
      stream.resume();
    });
    extract.on('finish', () => (refusal !== null ? reject(refusal) : resolve(files)));
    extract.on('error', reject);
  });
  Readable.from([bytes]).pipe(extract);
  return done;
}

/** A package whose files all sit in one top-level folder (as `tar czf x.tgz myplugin/` makes): that folder is the root. */
function stripSingleFolder(files: Map<string, Buffer>): Map<string, Buffer> {
  if (files.has('plugin.json')) return files;
  const tops = new Set([...files.keys()].map((p) => p.split('/')[0]));
  if (tops.size !== 1) return files;
  const [top] = [...tops];
  if (![...files.keys()].every((p) => p.startsWith(`${top}/`))) return files;
  return new Map([...files].map(([p, b]) => [p.slice(top!.length + 1), b]));
}

export function contentHashOf(files: Map<string, Buffer>): string {
  const hash = createHash('sha256');
  for (const name of [...files.keys()].sort()) {
    hash.update(name).update('\0').update(files.get(name)!).update('\0');
  }
  return hash.digest('hex');
}

/** Reads and checks an uploaded package; throws -4001 naming the broken rule. */
export async function readPluginPackage(bytes: Buffer): Promise<PluginPackage> {
  if (bytes.length > PLUGIN_ARCHIVE_MAX_BYTES) {
    throw refuse('插件包不能超过 5 MB', 'A plugin package must be at most 5 MB');
  }
  const isZip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  const isGzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!isZip && !isGzip) {
    throw refuse('插件包需要是 .zip 或 .tgz 文件', 'A plugin package must be a .zip or .tgz file');
  }
  let files: Map<string, Buffer>;
  try {
    if (isZip) {
      files = await readZip(bytes);
    } else {
      const unpacked = gunzipSync(bytes, { maxOutputLength: PLUGIN_UNPACKED_MAX_BYTES + 1024 * 1024 });
      files = await readTar(unpacked);
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'AppError') throw err;
    // yauzl refuses `../` and absolute names itself.
    const message = err instanceof Error ? err.message : '';
    const named = /^(?:invalid relative path|absolute path): (.*)$/.exec(message);
    if (named) throw outside(named[1]!);
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBigUnpacked();
    throw refuse('插件包已损坏，无法解压', 'The plugin package is damaged and cannot be unpacked');
  }
  files = stripSingleFolder(files);
  const raw = files.get('plugin.json');
  if (!raw) throw refuse('插件包的根目录缺少 plugin.json', 'The package has no plugin.json at its root');
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw refuse('plugin.json 不是有效的 JSON', 'plugin.json is not valid JSON');
  }
  const parsed = pluginManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const described = describeIssue(issue, { schema: pluginManifestSchema, input: json });
    throw invalidField(
      'file',
      msg('plugins.pluginJsonBreaksRule', {
        field: described.field,
        messageZh: described.message.zh,
        messageEn: described.message.en,
      }),
    );
  }
  const manifest = parsed.data;
  for (const [field, file] of [
    ['client', manifest.client],
    ['style', manifest.style],
    ['server', manifest.server],
  ] as const) {
    if (file && !files.has(file)) {
      throw refuse(
        `plugin.json 的 ${field} 指向的文件 ${file} 不在插件包中`,
        `plugin.json's ${field} names ${file}, which is not in the package`,
      );
    }
  }
  return { manifest, files, contentHash: contentHashOf(files) };
}
