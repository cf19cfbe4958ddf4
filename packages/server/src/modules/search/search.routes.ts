import { UserStatus, usersListQuery, type Page, type UserSearchItem, type UsersListQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { ok } from '../../core/envelope.js';
import { countUsersMatching, searchUsers } from './users-search.repository.js';

/** What users.list answers: members in good standing by username or nickname (also read by a page's render). */
export async function findUsers(ctx: AppContext, query: UsersListQuery): Promise<Page<UserSearchItem>> {
  const { db, dialect } = ctx;
  const { page, perPage, filter } = query;
  const keyword = (filter.nickname || filter.username || '').toLowerCase();
  const [totalCount, rows] = await Promise.all([
    countUsersMatching(db, dialect, keyword, UserStatus.NORMAL),
    searchUsers(db, dialect, keyword, UserStatus.NORMAL, (page - 1) * perPage, perPage),
  ]);
  const pageData: UserSearchItem[] = rows;
  return { pageData, currentPage: page, perPage, totalCount, totalPage: Math.ceil(totalCount / perPage) };
}

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

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
    async (request) => ok(request, await findUsers(app.ctx, request.query)),
  );
}
