import { updateUserBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../auth/guards.js';
import { replaceProfileImage, updateOwnProfile } from './users.service.js';

/** A member's own profile: names, signature, password, privacy and language; avatar and background images. */
export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['people'];

  api.post(
    '/v3/users/update.user',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Change your nickname, signature, password (with the current one), likes privacy or language',
        description:
          'Only the fields given change. A new password needs `password` (the current one; -7062 when wrong) and ' +
          'signs out every other session. Answers the updated profile card.',
        body: updateUserBody,
      },
    },
    async (request) => ok(request, await updateOwnProfile(ctx, request.viewer, request.body)),
  );

  for (const kind of ['avatar', 'background'] as const) {
    api.post(
      `/v3/users/${kind}`,
      {
        onRequest: loginRequired,
        schema: {
          tags,
          summary: `Upload your ${kind} (multipart: the image file; JPEG, PNG, GIF or WebP, at most 5 MB)`,
        },
      },
      async (request) => ok(request, await replaceProfileImage(ctx, request, kind)),
    );
  }
}
