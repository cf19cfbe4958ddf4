import { setNicknameBody, updateUserBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { replaceProfileImage, updateOwnProfile } from './account.service.js';

/** A member's own profile: names, signature, password, privacy and language; avatar and background images. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['people'];

  api.post(
    '/v3/users/update.user',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary:
          'Change your nickname, signature, password (with the current one), likes privacy, language, or a ' +
          'generated username (once)',
        description:
          'Only the fields given change. A new password needs `password` (the current one; -7062 when wrong) and ' +
          'signs out every other session. `username` replaces a username the site made up (a first SMS or outside ' +
          "sign-in; the profile says usernameChangeable), once, under the registration's rules: -4001 for a bad " +
          'name or a mobile number, -4006 for a stop word, -7042 when taken, -4002 when the username is not (or no ' +
          'longer) a generated one. A wrong current password counts as a failed sign-in of the account, as ' +
          'username.login counts them (-4029 with Data.retryAfter while it must wait). No API key may change the ' +
          'password or the username (-4002). Answers the updated profile card.',
        body: updateUserBody,
      },
    },
    async (request) => ok(request, await updateOwnProfile(ctx, request.viewer, request.body, request.ip)),
  );

  api.post(
    '/v3/users/nickname.set',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Change your nickname (the family’s one-field form of update.user)',
        description:
          'The same rules as update.user’s nickname: -4001 for an empty or too long name, -4006 for a stop word. ' +
          'Answers an empty object, as the family does.',
        body: setNicknameBody,
      },
    },
    async (request) => {
      await updateOwnProfile(ctx, request.viewer, { nickname: request.body.nickname }, request.ip);
      return ok(request, {});
    },
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
