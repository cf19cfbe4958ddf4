import type { UnreadCounters } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../auth/guards.js';
import { requireUser } from '../auth/viewer.js';
import { countUnreadDialogMessages } from '../dialogs/dialogs.service.js';
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
      const dialogMessageUnread = await countUnreadDialogMessages(app.ctx, user.id);
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
