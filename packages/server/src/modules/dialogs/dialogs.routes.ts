import {
  dialogCreateBody,
  dialogIdBody,
  dialogListQuery,
  dialogMessageCreateBody,
  dialogMessagesQuery,
  dialogRecordQuery,
  dialogReviewBody,
  dialogReviewListQuery,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly, loginRequired } from '../../access/guards.js';
import { listHeldDialogMessages, reviewDialogMessages } from './dialogs-review.js';
import {
  createDialog,
  createMessage,
  deleteDialog,
  dialogWith,
  listDialogMessages,
  listDialogs,
  readDialog,
} from './dialogs.service.js';

/** Private messages (the family's names). Every call needs a signed-in member; a dialog is its two members' only. */
export async function dialogsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['dialogs'];
  const rules =
    'Needs dialog.create and the dialogOpen setting (-11000 when off); -7061 the recipient blocked you, -7068 you ' +
    'blocked them; -4001 yourself; stop words of the dialog kind ({MOD} holds the message until approved: only its ' +
    'sender sees it); at most RATE_LIMIT_DIALOG_MESSAGES a minute (-4029).';

  api.post(
    '/v3/dialog.create',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'Send a private message to a member (recipientUserId or recipientUsername); answers {dialogId, id}',
        description: rules,
        body: dialogCreateBody,
      },
    },
    async (request) => ok(request, await createDialog(ctx, request.viewer, request.body)),
  );

  api.post(
    '/v3/dialog/message.create',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'Send a message in a dialog', description: rules, body: dialogMessageCreateBody },
    },
    async (request) => ok(request, await createMessage(ctx, request.viewer, request.body)),
  );

  api.get(
    '/v3/dialog',
    {
      onRequest: loginRequired,
      schema: {
        tags,
        summary: 'My dialogs, newest activity first, with the other member, the last message and my unread count',
        querystring: dialogListQuery,
      },
    },
    async (request) => ok(request, await listDialogs(ctx, request.viewer, request.query)),
  );

  api.get(
    '/v3/dialog.record',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'My dialog with userId: {dialogId} (null when none)', querystring: dialogRecordQuery },
    },
    async (request) => ok(request, await dialogWith(ctx, request.viewer, request.query.userId)),
  );

  api.get(
    '/v3/dialog/message',
    {
      onRequest: loginRequired,
      schema: { tags, summary: "A dialog's messages, newest first", querystring: dialogMessagesQuery },
    },
    async (request) => ok(request, await listDialogMessages(ctx, request.viewer, request.query)),
  );

  api.post(
    '/v3/dialog.update',
    { onRequest: loginRequired, schema: { tags, summary: 'Mark a dialog read', body: dialogIdBody } },
    async (request) => {
      await readDialog(ctx, request.viewer, request.body.dialogId);
      return ok(request, {});
    },
  );

  api.post(
    '/v3/dialog.delete',
    {
      onRequest: loginRequired,
      schema: { tags, summary: 'Delete a dialog for me (the other member keeps it)', body: dialogIdBody },
    },
    async (request) => {
      await deleteDialog(ctx, request.viewer, request.body.dialogId);
      return ok(request, {});
    },
  );

  api.get(
    '/backAdmin/manage.dialog.messages',
    {
      onRequest: adminOnly,
      schema: {
        tags: [...tags, 'admin'],
        summary: 'Private messages held by a {MOD} stop word (filter[isApproved] 0 waiting, 2 ignored)',
        querystring: dialogReviewListQuery,
      },
    },
    async (request) => ok(request, await listHeldDialogMessages(ctx, request.query)),
  );

  api.post(
    '/backAdmin/manage.dialog.review',
    {
      onRequest: adminOnly,
      schema: {
        tags: [...tags, 'admin'],
        summary: 'Approve (deliver), ignore or delete held private messages',
        body: dialogReviewBody,
      },
    },
    async (request) => ok(request, await reviewDialogMessages(ctx, request.body)),
  );
}
