import {
  adminUserQuery,
  adminUsersQuery,
  adminUserUpdateBody,
  usersExamineBody,
  type AdminUserDetail,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import { answersOf } from '../signin-fields/index.js';
import { examineUsers, listUsersForAdmin, updateUserByAdmin, userForAdmin } from './admin-users.service.js';

export async function adminUsersRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/backAdmin/users',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['users', 'admin'],
        summary: 'List and search users, newest first',
        description:
          'filter[username] and filter[nickname] match a part of the name in any case; filter[status], ' +
          'filter[groupId] and filter[id] match exactly.',
        querystring: adminUsersQuery,
      },
    },
    async (request) => ok(request, await listUsersForAdmin(db, request.query)),
  );

  api.get(
    '/backAdmin/user',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['users', 'admin'],
        summary: 'One user, with its groups and its sign-in field answers',
        querystring: adminUserQuery,
      },
    },
    async (request) => {
      const user = await userForAdmin(db, request.query.userId);
      const detail: AdminUserDetail = { ...user, signinFields: await answersOf(db, user.userId) };
      return ok(request, detail);
    },
  );

  api.post(
    '/backAdmin/users/update.user',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['users', 'admin'],
        summary: "Change a user's groups, ban (status 1, with a reason) or unban (status 0)",
        description:
          'A banned user gets -4009 (Data.reason) from the next request on. Administrators cannot change their own ' +
          'status, leave the administrator group themselves, or ban an administrator; the guest group is not given.',
        body: adminUserUpdateBody,
      },
    },
    async (request) => ok(request, await updateUserByAdmin(app.ctx, requireUser(request.viewer).id, request.body)),
  );

  api.post(
    '/backAdmin/users/examine',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['users', 'admin'],
        summary: 'Review registrations: users under review (status 2) become normal (0), rejected (3) or ignored (4)',
        body: usersExamineBody,
      },
    },
    async (request) => ok(request, await examineUsers(app.ctx, request.body)),
  );
}
