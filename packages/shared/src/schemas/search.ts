import { z } from 'zod';
import { pageQuery, searchKeywordSchema } from './threads.js';

/**
 * GET /api/v3/users.list: users whose username or nickname holds filter[nickname] (the search page's user tab);
 * exact matches first, then names that start with it, then the rest, the most active first.
 * Without a filter it lists the newest users.
 */
export const usersListQuery = z.object({
  ...pageQuery,
  filter: z
    .object({
      nickname: searchKeywordSchema.optional(),
      /** The family's other name for the same filter. */
      username: searchKeywordSchema.optional(),
    })
    .prefault({}),
});
export type UsersListQuery = z.infer<typeof usersListQuery>;

/** One user of users.list (only what any visitor may see). */
export interface UserSearchItem {
  userId: number;
  username: string;
  nickname: string;
  avatar: string;
  signature: string;
  threadCount: number;
  fansCount: number;
}
