import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertKey,
  contentTypeOfKey,
  type ByteRange,
  type FileStore,
  type SignedUrlOptions,
  type StorageSettings,
  type StoredObjectInfo,
  type StoredObjectStream,
} from './file-store.js';

type S3Settings = Extract<StorageSettings, { kind: 's3' }>;

/**
 * Objects in an S3-compatible bucket (Amazon S3, Tencent COS, Aliyun OSS, Cloudflare R2, MinIO), through the
 * official client. Keys are the bucket's object names after the configured prefix.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where the API demands them: several S3-compatible services refuse the newer default ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  private name(key: string): string {
    return this.prefix + assertKey(key);
  }

  async put(key: string, bytes: Buffer, contentType?: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.name(key),
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: contentType ?? contentTypeOfKey(key),
      }),
    );
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.name(key) }));
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? '""',
        contentType: head.ContentType,
        lastModified: head.LastModified ?? new Date(0),
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObjectStream | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.name(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // With a range, the whole size is the part after the slash of Content-Range.
      const whole = range ? Number(/\/(\d+)$/.exec(object.ContentRange ?? '')?.[1]) : object.ContentLength;
      return {
        stream: object.Body as Readable,
        info: {
          size: Number.isFinite(whole) ? Number(whole) : 0,
          etag: object.ETag ?? '""',
          contentType: object.ContentType,
          lastModified: object.LastModified ?? new Date(0),
        },
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const object = await this.get(key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.name(key) }));
  }

  async *list(prefix = ''): AsyncIterable<{ key: string; size: number }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { key: o.Key.slice(this.prefix.length), size: o.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.name(key),
        ...(options.contentDisposition ? { ResponseContentDisposition: options.contentDisposition } : {}),
        ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
      }),
      { expiresIn: options.expiresIn },
    );
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** Not there: 404 (NotFound from HEAD, NoSuchKey from GET). */
function isMissing(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound';
  }
  return false;
}
