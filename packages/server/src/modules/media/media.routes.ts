import { queryId } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../core/envelope.js';
import { downloadAttachment, shareAttachment, streamMedia } from './media.service.js';

/** The family's download parameters (DownloadAttachmentController): the thread and the attachment. */
const attachmentQuery = z.object({ threadId: queryId, attachmentsId: queryId });

export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    '/v3/attachment.download',
    {
      schema: {
        tags: ['attachments'],
        summary: "Download one of a thread's files (part 108)",
        description:
          'Needs thread.downloadAttachment in the thread’s category, the thread read whole (a paid thread bought) ' +
          'and, when the files are sold apart, the files bought (order type 7). Answers the bytes as ' +
          'application/octet-stream with Content-Disposition: attachment and X-Content-Type-Options: nosniff; ' +
          'takes one HTTP Range.',
        querystring: attachmentQuery,
      },
    },
    async (request, reply) => downloadAttachment(ctx, request, reply, request.query),
  );

  api.get(
    '/v3/attachment.share',
    {
      schema: {
        tags: ['attachments'],
        summary: "The address to share one of a thread's files (part 108): `{url}`, its attachment.download",
        description:
          'Under the download’s checks: -4004 when the file is not one of the thread’s, -4002 without ' +
          'thread.downloadAttachment (-3001 for a guest) or before the thread or the files are bought.',
        querystring: attachmentQuery,
      },
    },
    async (request) => ok(request, await shareAttachment(ctx, request.viewer, request.query)),
  );

  api.get(
    '/v3/attachment.media',
    {
      schema: {
        tags: ['attachments'],
        summary: "Play a thread's audio (part 102) or video (part 103), with HTTP Range",
        description:
          'Video needs thread.viewVideo; both need the thread read whole. Answers 206 with Content-Range for a ' +
          'Range request (416 when it cannot be satisfied), Accept-Ranges: bytes always.',
        querystring: attachmentQuery,
      },
    },
    async (request, reply) => streamMedia(ctx, request, reply, request.query),
  );
}
