import {
  denyBody,
  denyListQuery,
  followCreateBody,
  followDeleteBody,
  followListQuery,
  userProfileQuery,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { deny, follow, listDeniedPeople, listPeople, readProfile, undeny, unfollow } from './people.service.js';

/** People: the profile card, follows and fans, blocks (the family's names). */
export async function peopleRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ['people'];

  api.get(
    '/v3/user',
    {
      schema: {
        tags,
        summary: "A user's profile card with the viewer's relation (follow 0/1/2, isDeny); needs user.view",
        querystring: userProfileQuery,
      },
    },
    async (request) => ok(request, await readProfile(db, request.viewer, request.query.userId)),
  );

  api.post(
    '/v3/follow.create',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Follow a user (needs userFollow.create); Data.isMutual when they follow back',
        description: '-7059 yourself, -7061 they blocked you, -7068 you blocked them; following twice changes nothing.',
        body: followCreateBody,
      },
    },
    async (request) => ok(request, await follow(app.ctx, request.viewer, request.body.toUserId)),
  );

  api.post(
    '/v3/follow.delete',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'type 1: stop following user id; type 2: remove fan id', body: followDeleteBody },
    },
    async (request) => {
      await unfollow(db, request.viewer, request.body.id, request.body.type);
      return ok(request, {});
    },
  );

  api.get(
    '/v3/follow.list',
    {
      schema: {
        tags,
        summary: 'Whom filter[userId] follows (filter[type]=1) or their fans (2), with the viewer’s own relation',
        querystring: followListQuery,
      },
    },
    async (request) => {
      const { page, perPage, filter } = request.query;
      const type = filter.type === 2 ? 2 : 1;
      return ok(request, await listPeople(db, request.viewer, { userId: filter.userId, type, page, perPage }));
    },
  );

  api.post(
    '/v3/users/deny.create',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'Block a user (also ends both follows between you)', body: denyBody },
    },
    async (request) => {
      await deny(db, request.viewer, request.body.id);
      return ok(request, {});
    },
  );

  api.post(
    '/v3/users/deny.delete',
    { onRequest: loginRequired, schema: { tags, summary: 'Unblock a user', body: denyBody } },
    async (request) => {
      await undeny(db, request.viewer, request.body.id);
      return ok(request, {});
    },
  );

  api.get(
    '/v3/users/deny.list',
    { onRequest: loginRequired, schema: { tags, summary: 'The users you blocked', querystring: denyListQuery } },
    async (request) => ok(request, await listDeniedPeople(db, request.viewer, request.query)),
  );
}
