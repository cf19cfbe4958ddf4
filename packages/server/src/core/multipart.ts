import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { AppError, invalidField, type LocalizedText } from './errors.js';
import { msg } from '../i18n/index.js';

/** Largest upload the server reads at all (site images, attachments), bytes; each route has its own lower limit. */
export const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

/** What a multipart body may add around its file: boundaries, part headers and a few small fields. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export interface MultipartUpload {
  /** The first file part, read in full (at most `fileSize` bytes). */
  file: { bytes: Buffer; fileName: string } | undefined;
  /** The text fields by name (the last one wins). */
  fields: Map<string, string>;
}

/**
 * Reads a multipart/form-data upload of one file and a few fields, refusing it as early as possible: a declared
 * Content-Length over the limit before a byte of the body is read, a file that grows past it as soon as it does
 * (the error answer then closes the connection, so the rest is never read: see api.ts). A body that is cut short
 * or malformed is the client's fault (-4001), never a 500.
 */
export async function readMultipartUpload(
  request: FastifyRequest,
  options: { field: string; label: LocalizedText & object; fileSize: number; fields?: number },
): Promise<MultipartUpload> {
  const { field, label } = options;
  if (!request.isMultipart()) {
    throw invalidField(
      field,
      msg('core.sendMultipartFormData', { labelZh: label.zh, labelEn: label.en.toLowerCase() }),
    );
  }
  const tooLarge = invalidField(
    field,
    msg('core.most', { labelZh: label.zh, sizeText: sizeText(options.fileSize), labelEn: label.en.toLowerCase() }),
  );
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.fileSize + MULTIPART_OVERHEAD_BYTES) {
    throw tooLarge;
  }
  const upload: MultipartUpload = { file: undefined, fields: new Map() };
  const hangUp = whenCutOff(request.raw);
  try {
    // One byte over the limit is let through, so that the chunk crossing it arrives and is refused at once: at the
    // limit busboy only stops passing data on, and would read on to the end of the body.
    const limits = { fileSize: options.fileSize + 1, files: 1, fields: options.fields ?? 10 };
    const read = async () => {
      for await (const part of request.parts({ limits })) {
        if (part.type === 'file') {
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of part.file as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > options.fileSize) throw tooLarge;
            chunks.push(chunk);
          }
          upload.file = { bytes: Buffer.concat(chunks), fileName: part.filename };
        } else {
          upload.fields.set(part.fieldname, String(part.value));
        }
      }
    };
    await Promise.race([read(), hangUp.promise]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge;
    // busboy's "Unexpected end of form", "Part terminated early", "Malformed part header", a client that hung up
    // ("Premature close"), @fastify/multipart's limits: all say the body is not a whole, acceptable form.
    request.log.info({ err }, 'multipart body refused');
    throw invalidField(
      field,
      msg('core.uploadCutShortMalformed', { labelZh: label.zh, labelEn: label.en.toLowerCase() }),
    );
  } finally {
    hangUp.stop();
  }
  return upload;
}

/**
 * Rejects once the client has hung up before its body was complete. A stream destroyed before it was piped anywhere
 * never ends nor fails for its new reader: on PostgreSQL, whose hooks before the handler wait on the database, the
 * client's hang-up often comes first, and the upload would wait forever (no answer, no log line).
 */
function whenCutOff(raw: IncomingMessage): { promise: Promise<never>; stop(): void } {
  let onClose = () => {};
  const promise = new Promise<never>((_, reject) => {
    onClose = () => {
      if (!raw.complete) reject(new Error('the client hung up before the body was complete'));
    };
  });
  // Nobody awaits it once the form has been read.
  promise.catch(() => undefined);
  if (raw.destroyed) onClose();
  else raw.once('close', onClose);
  return { promise, stop: () => raw.off('close', onClose) };
}

/** A size for people: `5 MB`, `1.5 MB`, `300 KB`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `${Math.max(1, Math.floor(bytes / 1024))} KB`;
}
