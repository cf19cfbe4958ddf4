import { UserStatus, usersListQuery, type UserSearchItem } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { countUsersMatching, searchUsers } from './users-search.repository.js';

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, dialect } = app.ctx;

  api.get(
    '/v3/users.list',
    {
      config: { guestCache: true },
      schema: {
        tags: ['search'],
        summary: 'Find users by username or nickname (filter[nickname]); exact, then prefix, then other matches',
        querystring: usersListQuery,
      },
    },
    async (request) => {
      const { page, perPage, filter } = request.query;
      const keyword = (filter.nickname || filter.username || '').toLowerCase();
      const [totalCount, rows] = await Promise.all([
        countUsersMatching(db, dialect, keyword, UserStatus.NORMAL),
        searchUsers(db, dialect, keyword, UserStatus.NORMAL, (page - 1) * perPage, perPage),
      ]);
      const pageData: UserSearchItem[] = rows;
      return ok(request, {
        pageData,
        currentPage: page,
        perPage,
        totalCount,
        totalPage: Math.ceil(totalCount / perPage),
      });
    },
  );
}
