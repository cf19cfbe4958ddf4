import type { Forum } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../../core/envelope.js';
import { can, canAnywhere, presentViewer, type ViewerContext } from '../../access/viewer.js';
import { readSiteInfo } from '../settings/index.js';
import { needsCaptchaToPublish } from '../captcha/index.js';
import { isSmsEnabled } from '../sms/index.js';

export function presentPermissions(viewer: ViewerContext): Forum['other'] {
  return {
    canViewThreads: canAnywhere(viewer, 'viewThreads'),
    canCreateThread: viewer.user !== null && canAnywhere(viewer, 'createThread'),
    canCreateDialog: viewer.user !== null && can(viewer, 'dialog.create'),
    canFollowUser: viewer.user !== null && can(viewer, 'userFollow.create'),
    canViewUser: can(viewer, 'user.view'),
    canEditUserGroup: viewer.isAdmin,
    createThreadWithCaptcha: needsCaptchaToPublish(viewer),
    canInviteUserScale: viewer.user !== null && can(viewer, 'other.canInviteUserScale'),
  };
}

/** What /v3/forum answers: the site, who the viewer is and what they may do (also read by a page's render). */
export async function readForum(ctx: AppContext, viewer: ViewerContext): Promise<Forum> {
  const setSite = await readSiteInfo(ctx.db, { smtpUrl: ctx.config.smtpUrl, smsEnabled: await isSmsEnabled(ctx) });
  return {
    setSite,
    user: presentViewer(viewer, setSite.siteMode),
    permissions: [...viewer.permissions].sort(),
    other: presentPermissions(viewer),
  };
}

export async function forumRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  // The site's public settings with what other modules know of it (SMS): composed here, above settings and sms.
  app.get(
    '/siteinfo.v2',
    {
      config: { guestCache: true },
      schema: { tags: ['settings'], summary: 'Public site information (never a secret)' },
    },
    async (request) =>
      ok(request, await readSiteInfo(db, { smtpUrl: app.ctx.config.smtpUrl, smsEnabled: await isSmsEnabled(app.ctx) })),
  );

  app.get(
    '/v3/forum',
    {
      config: { guestCache: true },
      schema: {
        tags: ['forum'],
        summary: 'Site information, who the viewer is, and which permissions the viewer holds',
        description:
          'user.paid false: the site is paid (siteMode pay) and the member has not paid the joining fee (or it ran ' +
          'out); every other call but paying answers -3006 until they pay.',
      },
    },
    async (request) => ok(request, await readForum(app.ctx, request.viewer)),
  );
}
