import { inviteDetailQuery, inviteLinkQuery, inviteUsersQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { createInviteLink, inviteDetail, invitedUsers } from './invites.service.js';
import { msg } from '../../i18n/index.js';

/** Invitations (the family's names): a member makes a link, a newcomer registers through it. */
export async function invitesRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ['invites'];

  api.get(
    '/v3/invite.link.create',
    {
      onRequest: loginRequired,
      config: { changesState: true },
      schema: {
        tags,
        summary:
          'An invitation link into groupId (default: the member group), valid 7 days; needs other.canInviteUserScale',
        description:
          'Members may invite into the default member group only; administrators into any group but the ' +
          'administrators and guests. Another group is -4002, an unknown one -4004. Registration with the link’s ' +
          'inviteCode puts the newcomer in that group and records the inviter.',
        querystring: inviteLinkQuery,
      },
    },
    async (request) => ok(request, await createInviteLink(db, request.viewer, request.query.groupId)),
  );

  api.get(
    '/v3/invite.users.list',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'Whom I invited, newest first', querystring: inviteUsersQuery },
    },
    async (request) => ok(request, await invitedUsers(db, request.viewer, request.query)),
  );

  api.get(
    '/v3/invite.detail',
    {
      schema: {
        tags,
        summary: 'Ours: who invites, into which group, and whether the link still works (for the register page)',
        querystring: inviteDetailQuery,
      },
    },
    async (request) => {
      const detail = await inviteDetail(db, request.query.code);
      if (!detail) throw notFound(msg('invites.noSuchInvitation'));
      return ok(request, detail);
    },
  );
}
