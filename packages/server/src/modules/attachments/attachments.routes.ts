import { imageQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../core/envelope.js';
import { forbidden } from '../../core/errors.js';
import { loginRequired } from '../../access/guards.js';
import { canAnywhere } from '../../access/viewer.js';
import { serveImage, uploadAttachment, UPLOAD_PERMISSIONS } from './attachments.service.js';

const imageFileParams = z.object({
  file: z.string().regex(/^[A-Za-z0-9_-]{16,64}\.(jpg|png|gif|webp)$/, 'file: not an attachment image name'),
});

export async function attachmentsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.post(
    '/v3/attachments',
    {
      // Refused before the upload is read: a guest, or a member who may insert images, files, audio and video nowhere.
      onRequest: [
        loginRequired,
        async (request) => {
          if (!UPLOAD_PERMISSIONS.some((p) => canAnywhere(request.viewer, p))) throw forbidden();
        },
      ],
      schema: {
        tags: ['attachments'],
        summary: 'Upload an image, file, audio or video (multipart: file, type=image|file|audio|video, categoryId?)',
        description:
          'type=file (0): a thread file (part 108), an extension of the supportFileExt setting whose bytes do not ' +
          'contradict it, at most supportMaxSize MiB, needs thread.insertAttachment. type=audio (2): mp3, m4a, ogg ' +
          'or webm; type=video (3): mp4 or webm (judged from the bytes too), needs thread.insertAudio / ' +
          'insertVideo; `duration` (seconds) may come along. These answer {id, type, fileName, format, fileSize, ' +
          'duration} and are served only through attachment.download and attachment.media. ' +
          'type=image: JPEG, PNG, GIF or WebP, judged from the bytes; at most the attachmentSizeLimit setting (KiB). Needs ' +
          'thread.insertImage (in categoryId when given). Answers the image URL to put in Markdown, which takes ' +
          '?level= (100: the 500x500 thumbnail; 1-99: quality 100-level), ?width= and ?fps= (animated GIFs), and ' +
          'answers WebP when the Accept header allows.',
      },
    },
    async (request) => ok(request, await uploadAttachment(ctx, request)),
  );

  api.get(
    '/v3/attachments/:file',
    {
      schema: {
        tags: ['attachments'],
        summary: 'An attachment image, compressed as the query asks (level, width, fps; WebP by Accept)',
        params: imageFileParams,
        querystring: imageQuery,
      },
    },
    async (request, reply) => serveImage(ctx, request.params.file, request.query, request, reply),
  );
}
