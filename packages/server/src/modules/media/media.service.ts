import { AttachmentType, ThreadPart, type AttachmentShareData } from '@luntan/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { forbidden, notFound } from '../../core/errors.js';
import type { DB } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { attachmentFileKey, mediaMimeTypeOf } from '../attachments/index.js';
import { assertCanReadThread, denied, findThread, readsWholeThread } from '../threads/index.js';
import { msg } from '../../i18n/index.js';
import { filesUnlocked, type FilesValue } from './files.part.js';
import type { MediaValue } from './media.part.js';
import { attachmentsByIds, partValue } from './media.repository.js';

/** The price of a thread's files sold apart, in cents (0: none, or the thread holds no files). */
export async function filesPriceCents(db: Kysely<DB>, threadId: number): Promise<number> {
  const value = await partValue<FilesValue>(db, threadId, ThreadPart.FILES);
  return value?.priceCents ?? 0;
}

const attachmentNotFound = () => notFound(msg('media.attachmentNotFound'));

/**
 * The attachment a viewer asks for through a thread, checked: the thread is readable, the attachment is one of its
 * files (download) or its audio or video (media), the viewer reads the thread whole, holds the permission
 * (thread.downloadAttachment for files, thread.viewVideo for video) and, for files sold apart, bought them.
 */
async function attachmentFor(
  ctx: AppContext,
  viewer: ViewerContext,
  threadId: number,
  attachmentId: number,
  kind: 'file' | 'media',
) {
  const thread = await findThread(ctx.db, threadId);
  assertCanReadThread(viewer, thread);
  const [a] = await attachmentsByIds(ctx.db, [attachmentId]);
  if (!a || a.postId === null) throw attachmentNotFound();
  if (kind === 'file') {
    const files = await partValue<FilesValue>(ctx.db, thread.id, ThreadPart.FILES);
    if (!files || !files.docIds.includes(a.id) || a.type !== AttachmentType.FILE) throw attachmentNotFound();
    if (!can(viewer, 'thread.downloadAttachment', thread.categoryId)) {
      if (!viewer.user) throw denied(viewer);
      throw forbidden(msg('media.noDownload'));
    }
    if (!(await readsWholeThread(ctx.db, viewer, thread))) throw forbidden(msg('media.buyThreadFirst'));
    if (!(await filesUnlocked(ctx.db, viewer, thread, files))) {
      throw forbidden(msg('media.buyFilesFirst'));
    }
    return a;
  }
  const type =
    a.type === AttachmentType.AUDIO ? ThreadPart.AUDIO : a.type === AttachmentType.VIDEO ? ThreadPart.VIDEO : 0;
  const media = type ? await partValue<MediaValue>(ctx.db, thread.id, type) : undefined;
  if (!media || media.attachmentId !== a.id) throw attachmentNotFound();
  if (type === ThreadPart.VIDEO && !can(viewer, 'thread.viewVideo', thread.categoryId)) {
    if (!viewer.user) throw denied(viewer);
    throw forbidden(msg('media.noViewVideo'));
  }
  if (!(await readsWholeThread(ctx.db, viewer, thread))) throw forbidden(msg('media.buyThreadFirst'));
  return a;
}

/** A file name for Content-Disposition: ASCII fallback plus the UTF-8 name (RFC 6266 / 5987). */
function disposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Parses a single `bytes=` range against a size; null when absent, 'bad' when not satisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'bad';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'bad';
  return { start, end };
}

/**
 * Sends a stored file, honouring one HTTP Range (206 with Content-Range; 416 when unsatisfiable), never as a page:
 * files go as application/octet-stream attachments, audio and video inline with their own type; always nosniff.
 * From a bucket too the bytes pass through here (never a redirect to a signed address): the checks above hold for
 * every request, ranges work as on disk, and the answer keeps its headers (CSP, disposition).
 */
async function sendStored(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  a: Awaited<ReturnType<typeof attachmentFor>>,
  kind: 'file' | 'media',
): Promise<FastifyReply> {
  const key = attachmentFileKey(a);
  const info = await ctx.files.stat(key);
  if (!info) throw attachmentNotFound();
  const { size } = info;
  reply
    .header('accept-ranges', 'bytes')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=3600')
    .header('content-disposition', disposition(kind === 'file' ? 'attachment' : 'inline', a.fileName))
    .type(kind === 'file' ? 'application/octet-stream' : mediaMimeTypeOf(a));
  const range = parseRange(request.headers.range, size);
  if (range === 'bad') {
    return reply
      .code(416)
      .header('content-range', `bytes */${size}`)
      .type('text/plain; charset=utf-8')
      .send(msg('media.badRange').en);
  }
  const object = await ctx.files.get(key, range ?? undefined);
  if (!object) throw attachmentNotFound();
  if (range === null) {
    reply.header('content-length', String(size));
    return reply.send(object.stream);
  }
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(object.stream);
}

/** GET /api/v3/attachment.download?threadId=&attachmentsId=: one of a thread's files, as a download. */
export async function downloadAttachment(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  q: { threadId: number; attachmentsId: number },
): Promise<FastifyReply> {
  const a = await attachmentFor(ctx, request.viewer, q.threadId, q.attachmentsId, 'file');
  return sendStored(ctx, request, reply, a, 'file');
}

/**
 * GET /api/v3/attachment.share?threadId=&attachmentsId=: the address to share one of a thread's files, under the
 * download's own checks (so only a viewer who may download it gets one). The family stored a ten-minute sign; the
 * download here checks the permission at every call, so the plain address serves.
 */
export async function shareAttachment(
  ctx: AppContext,
  viewer: ViewerContext,
  q: { threadId: number; attachmentsId: number },
): Promise<AttachmentShareData> {
  const a = await attachmentFor(ctx, viewer, q.threadId, q.attachmentsId, 'file');
  return { url: `/api/v3/attachment.download?threadId=${q.threadId}&attachmentsId=${a.id}` };
}

/** GET /api/v3/attachment.media?threadId=&attachmentsId=: a thread's audio or video, played with HTTP Range. */
export async function streamMedia(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  q: { threadId: number; attachmentsId: number },
): Promise<FastifyReply> {
  const a = await attachmentFor(ctx, request.viewer, q.threadId, q.attachmentsId, 'media');
  return sendStored(ctx, request, reply, a, 'media');
}
