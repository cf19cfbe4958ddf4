import type { UnreadCounters } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../auth/guards.js';
import { requireUser } from '../auth/viewer.js';
import { countUnreadByCategory } from './notifications.repository.js';

export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get(
    '/v3/unreadnotification',
    {
      onRequest: loginRequired,
      schema: { tags: ['notifications'], summary: "The header badge's unread counters" },
    },
    async (request) => {
      const user = requireUser(request.viewer);
      const byCategory = await countUnreadByCategory(db, user.id);
      // Private messages arrive with the messages issue; until then there are none to count.
      const dialogMessageUnread = 0;
      const accountUnread = byCategory.account ?? 0;
      const financialUnread = byCategory.financial ?? 0;
      const threadUnread = byCategory.thread ?? 0;
      const counters: UnreadCounters = {
        totalUnread: dialogMessageUnread + accountUnread + financialUnread + threadUnread,
        dialogMessageUnread,
        accountUnread,
        financialUnread,
        threadUnread,
      };
      return ok(request, counters);
    },
  );
}
