import type { Readable } from 'node:stream';

/*
 * Where the forum keeps its files: one key space with two halves, the same on every backend.
 * `uploads/...` holds what anyone may see (attachments' image sizes, avatars, backgrounds, site images), served at
 * /uploads/...; `files/...` holds threads' files, audio and video, served only after the forum's checks (modules/media).
 * On disk a key is a path under DATA_DIR (today's layout); in a bucket it is the object's name (after a prefix).
 */

/** What is known of a stored object. */
export interface StoredObjectInfo {
  size: number;
  /** A validator for caches (the bucket's ETag, or size and time on disk), quoted as HTTP sends it. */
  etag: string;
  contentType: string | undefined;
  lastModified: Date;
}

/** Bytes from `start` to `end`, both included (as HTTP Range counts). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObjectStream {
  stream: Readable;
  /** The whole object's facts (size is the whole size, not the range's). */
  info: StoredObjectInfo;
}

export interface SignedUrlOptions {
  /** Seconds the address stays valid. */
  expiresIn: number;
  /** Content-Disposition the answer should carry (a download's file name). */
  contentDisposition?: string;
  contentType?: string;
}

/** One backend that keeps the forum's files (core/storage/disk-store.ts, core/storage/s3-store.ts). */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** Writes the bytes at the key; a reader sees the old object or the new one, never half of one. */
  put(key: string, bytes: Buffer, contentType?: string): Promise<void>;
  /** The object's bytes (or a range of them) as a stream; null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<StoredObjectStream | null>;
  /** The whole object in memory; null when there is none. */
  read(key: string): Promise<Buffer | null>;
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** Removes the object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (for migrations), in no promised order. */
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
  /** A short-lived address that reads the object without the forum, where the backend can make one (null on disk). */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string | null>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** How STORAGE_URL chose the backend (config.ts). */
export type StorageSettings =
  | { kind: 'disk' }
  | {
      kind: 's3';
      accessKeyId: string;
      secretAccessKey: string;
      bucket: string;
      /** Key prefix inside the bucket ('' or ending in '/'). */
      prefix: string;
      /** The provider's address; absent for Amazon S3 itself. */
      endpoint: string | undefined;
      region: string;
      forcePathStyle: boolean;
    };

/** The two halves of the key space. */
export const PUBLIC_PREFIX = 'uploads/';
export const PRIVATE_PREFIX = 'files/';

/**
 * A key is relative, in forward slashes, with no empty, `.` or `..` segment: what may name both a file under
 * DATA_DIR and an object. Anything else is a programming error (or an attack through an address), refused here.
 */
export function assertKey(key: string): string {
  if (
    key.length === 0 ||
    key.length > 900 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((s) => s === '' || s === '.' || s === '..')
  ) {
    throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** The content type stored with an object, from its extension (what /uploads/ answers with). */
export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  avif: 'image/avif',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
};
