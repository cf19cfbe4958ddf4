import type { Forum, SiteInfo } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { VersionedValue } from '../../core/cache-versions.js';
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

/** Each forum's public site information, by its context (siteInfoOf). */
const keptSiteInfo = new WeakMap<AppContext, VersionedValue<SiteInfo>>();

/**
 * The site's public information with what other modules know of it (SMS), kept in the process while the `settings`
 * counter stays where it was: a trigger raises it with every write to `settings` (migration 2026112401), and every
 * /api request and page render reads the counters first, so no process answers from it after a change. Every page
 * and every /v3/forum call read four settings queries and decoded the tag's settings before (docs/performance.md,
 * "sixth part"). Shared by requests: read, never changed.
 */
function siteInfoOf(ctx: AppContext): Promise<SiteInfo> {
  let kept = keptSiteInfo.get(ctx);
  if (!kept) {
    kept = new VersionedValue(ctx.versions, 'settings', async () =>
      readSiteInfo(ctx.db, { smtpUrl: ctx.config.smtpUrl, smsEnabled: await isSmsEnabled(ctx) }),
    );
    keptSiteInfo.set(ctx, kept);
  }
  return kept.get();
}

/** What /v3/forum answers: the site, who the viewer is and what they may do (also read by a page's render). */
export async function readForum(ctx: AppContext, viewer: ViewerContext): Promise<Forum> {
  const setSite = await siteInfoOf(ctx);
  return {
    setSite,
    user: presentViewer(viewer, setSite.siteMode),
    permissions: [...viewer.permissions].sort(),
    other: presentPermissions(viewer),
  };
}

export async function forumRoutes(app: FastifyInstance): Promise<void> {
  // The site's public settings with what other modules know of it (SMS): composed here, above settings and sms.
  app.get(
    '/siteinfo.v2',
    {
      config: { guestCache: true },
      schema: { tags: ['settings'], summary: 'Public site information (never a secret)' },
    },
    async (request) => ok(request, await siteInfoOf(app.ctx)),
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
