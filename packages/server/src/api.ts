import { Code, UserStatus, type CodeValue } from '@luntan/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound } from './core/errors.js';
import { envelope } from './core/envelope.js';
import { registerBodyParsers } from './core/body-parsers.js';
import { trackApiRequest } from './core/client-error.js';
import { refuseNulCharacters } from './core/input-guard.js';
import { refuseCrossSiteWrites } from './core/same-origin.js';
import { registerApiEtag } from './core/api-etag.js';
import { registerGuestCache } from './core/guest-cache.js';
import { chosenLocale, codeMessage, localize, requestLocale } from './core/i18n.js';
import { RequestValidationError } from './core/validation.js';
import { authRoutes } from './modules/auth/index.js';
import { attachmentsRoutes } from './modules/attachments/index.js';
import { mediaRoutes } from './modules/media/index.js';
import { categoriesRoutes } from './modules/categories/index.js';
import { resolveViewer, statusError, tokenFromRequest } from './access/viewer.js';
import { assertApiKeyScope } from './access/api-key-scope.js';
import { isOpenToUnpaid, joiningFeeError, owesJoiningFee, refuseOtherOrders } from './access/paid-joining.js';
import { dialogsRoutes } from './modules/dialogs/index.js';
import { emojiRoutes } from './modules/emoji/index.js';
import { liveRoutes } from './modules/dialogs/index.js';
import { forumRoutes } from './modules/forum/index.js';
import { mailRoutes } from './modules/mail/index.js';
import { groupsRoutes } from './modules/groups/index.js';
import { notificationTemplatesRoutes } from './modules/notification-templates/index.js';
import { notificationsRoutes } from './modules/notifications/index.js';
import { financeRoutes } from './modules/finance/index.js';
import { peopleRoutes } from './modules/people/index.js';
import { postsRoutes } from './modules/posts/index.js';
import { bountyRoutes } from './modules/bounty/index.js';
import { reviewRoutes } from './modules/review/index.js';
import { reportsRoutes } from './modules/reports/index.js';
import { invitesRoutes } from './modules/invites/index.js';
import { captchaRoutes } from './modules/captcha/index.js';
import { searchRoutes } from './modules/search/index.js';
import { topicsRoutes } from './modules/topics/index.js';
import { smsRoutes } from './modules/sms/index.js';
import { signinFieldsRoutes, SUPPLEMENTARY_CALLS } from './modules/signin-fields/index.js';
import { settingsRoutes } from './modules/settings/index.js';
import { siteClosedError } from './modules/settings/index.js';
import { groupViewer, renderAsFromRequest } from './modules/web/index.js';
import { stopWordsRoutes } from './modules/stop-words/index.js';
import { threadsRoutes } from './modules/threads/index.js';
import { threadPartsRoutes } from './modules/thread-parts/index.js';
import { votesRoutes } from './modules/votes/index.js';
import { adminUsersRoutes } from './modules/admin-users/index.js';
import { accountRoutes } from './modules/account/index.js';
import { ordersRoutes, paymentNoticesRoutes } from './modules/orders/index.js';
import { paymentsRoutes } from './modules/payments/index.js';
import { walletRoutes } from './modules/wallet/index.js';
import { redPacketsRoutes } from './modules/red-packets/index.js';
import { pluginsRoutes } from './modules/plugins/index.js';
import { withdrawalsRoutes } from './modules/withdrawals/index.js';
import { webhooksRoutes } from './modules/webhooks/index.js';
import { backupsRoutes } from './modules/backups/index.js';
import { apiKeysRoutes } from './modules/api-keys/index.js';
import { pushRoutes } from './modules/push/index.js';
import { goodsRoutes } from './modules/goods/index.js';
import { OAUTH_SIGN_IN_CALLS, oauthRoutes } from './modules/oauth/index.js';
import { WECHAT_SIGN_IN_CALLS, wechatRoutes } from './modules/wechat/index.js';
import { isWechatConfigured } from './modules/wechat/index.js';
import { notEnabledRoutes } from './modules/not-enabled/index.js';
import { msg } from './i18n/index.js';

/**
 * Calls a signed-in user whose account is banned, rejected or ignored may still make. The event stream stays open
 * too: its events only make the page read the API again, which then answers why the account cannot act.
 */
const OPEN_TO_STOPPED_USERS = new Set(['/api/v3/users/logout', '/api/siteinfo.v2', '/api/v3/forum', '/api/v3/live']);

/** What a user who still owes sign-in fields (status 10) may call besides: the calls that fill them. */
const OPEN_TO_SUPPLEMENTARY = new Set(SUPPLEMENTARY_CALLS);

/**
 * Calls anyone may make while the site is closed: reading the site (and its notice) and signing in, so that an
 * administrator can get in. Login itself refuses everyone but administrators then (auth.service).
 */
const OPEN_WHEN_SITE_CLOSED = new Set([
  '/api/v3/users/username.login',
  '/api/v3/users/sms.send',
  '/api/v3/users/sms.login',
  '/api/v3/users/logout',
  '/api/siteinfo.v2',
  '/api/v3/forum',
  ...OAUTH_SIGN_IN_CALLS,
  ...WECHAT_SIGN_IN_CALLS,
]);

/** Everything under /api: who is asking, the envelope, the error codes. */
export async function apiRoutes(api: FastifyInstance): Promise<void> {
  // Before any route: each module's scope copies the parsers as they are when it is registered.
  registerBodyParsers(api);
  registerGuestCache(
    api,
    api.ctx.guestCache,
    (request) => tokenFromRequest(request) !== null || renderAsFromRequest(request) !== null,
  );
  // What a write emits tells the write hook above which kept pages it staled (core/page-cache.ts).
  if (api.ctx.pages.enabled) api.ctx.events.recordWrites(api);
  registerApiEtag(api);
  api.addHook('onRequest', trackApiRequest);
  api.addHook('onRequest', refuseCrossSiteWrites);
  api.addHook('onRequest', async (request) => {
    const { db, versions, viewers } = api.ctx;
    // The counters first: what the caches below (and the handlers') may still use depends on them.
    await versions.refresh();
    // A page rendered for a set of groups reads as those groups (modules/web/group-render.ts).
    const renderAs = renderAsFromRequest(request);
    request.viewer = renderAs
      ? await groupViewer(db, renderAs, viewers)
      : await resolveViewer(db, tokenFromRequest(request), viewers);
    const url = request.routeOptions.url ?? '';
    const mayBeClosed = !request.viewer.isAdmin && !OPEN_WHEN_SITE_CLOSED.has(url);
    // A visitor who chose no language reads messages in the site's default, as the page does (core/i18n.ts).
    let siteMode: string | undefined;
    if (mayBeClosed || chosenLocale(request) === undefined) {
      const site = await api.ctx.siteGate.get();
      request.siteLocale = site.locale;
      siteMode = site.siteMode;
      if (mayBeClosed && site.closed) throw await siteClosedError(db);
    }
    // A copy: the resolved viewer may be a cached object shared by requests.
    request.viewer = { ...request.viewer, locale: requestLocale(request) };
    // An API key: its own budget of requests, then what its scope allows (the admin routes' guard checks it too).
    const key = request.viewer.apiKey;
    if (key) {
      await api.ctx.limits.apiKeys.consume(String(key.id));
      assertApiKeyScope(request, key);
    }
    const user = request.viewer.user;
    if (user && !OPEN_TO_STOPPED_USERS.has(url)) {
      const filling = user.status === UserStatus.NEEDS_SIGNIN_FIELDS && OPEN_TO_SUPPLEMENTARY.has(url);
      const stop = filling ? null : statusError(user);
      if (stop) throw stop;
    }
    // A paid site's member who owes the joining fee may only pay (-3006 else). The gate is read for every call of
    // a non-administrator but those open while the site is closed, which are all open to them too.
    if (siteMode !== undefined && owesJoiningFee(request.viewer, siteMode)) {
      if (!isOpenToUnpaid(url)) throw joiningFeeError();
      request.owesJoiningFee = true;
    }
  });

  api.addHook('preValidation', refuseNulCharacters);
  api.addHook('preValidation', refuseOtherOrders);
  api.setErrorHandler(async (error, request, reply) => sendError(error, request, reply));

  await api.register(authRoutes);
  await api.register(smsRoutes);
  await api.register(settingsRoutes);
  await api.register(forumRoutes);
  await api.register(groupsRoutes);
  await api.register(notificationsRoutes);
  await api.register(categoriesRoutes);
  await api.register(emojiRoutes);
  await api.register(threadsRoutes);
  await api.register(threadPartsRoutes);
  await api.register(votesRoutes);
  await api.register(postsRoutes);
  await api.register(bountyRoutes);
  await api.register(attachmentsRoutes);
  await api.register(mediaRoutes);
  await api.register(searchRoutes);
  await api.register(topicsRoutes);
  await api.register(adminUsersRoutes);
  await api.register(stopWordsRoutes);
  await api.register(webhooksRoutes);
  await api.register(backupsRoutes);
  await api.register(apiKeysRoutes);
  await api.register(pushRoutes);
  await api.register(goodsRoutes);
  await api.register(reviewRoutes);
  await api.register(reportsRoutes);
  await api.register(invitesRoutes);
  await api.register(captchaRoutes);
  await api.register(signinFieldsRoutes);
  await api.register(notificationTemplatesRoutes);
  await api.register(peopleRoutes);
  await api.register(withdrawalsRoutes);
  await api.register(financeRoutes);
  await api.register(accountRoutes);
  await api.register(dialogsRoutes);
  await api.register(liveRoutes);
  await api.register(walletRoutes);
  await api.register(redPacketsRoutes);
  await api.register(ordersRoutes);
  await api.register(paymentNoticesRoutes);
  await api.register(paymentsRoutes);
  await api.register(pluginsRoutes);
  await api.register(mailRoutes);
  await api.register(oauthRoutes, { isWechatConfigured });
  await api.register(wechatRoutes);
  await api.register(notEnabledRoutes);

  // Without this, the web app's catch-all would answer unknown /api paths with a page.
  api.all('/*', async () => {
    throw notFound(msg('app.noSuchApi'));
  });
}

function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const locale = requestLocale(request);
  // Refused before its body was read (a guest's upload, one over the limit): close the connection after answering,
  // or Node would read the rest of the body, however large, to keep the connection alive.
  if (!request.raw.complete) reply.header('connection', 'close');
  const answer = (code: CodeValue, message: string, status = 200, data: unknown = {}) =>
    reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send(envelope(request, code, message, data));

  if (error instanceof AppError) {
    if (error.options.headers) reply.headers(error.options.headers);
    const status = error.options.httpStatus ?? defaultStatus(error.code, request);
    return answer(
      error.code,
      error.text ? localize(error.text, locale) : codeMessage(error.code, locale),
      status,
      error.options.data ?? {},
    );
  }
  if (error instanceof RequestValidationError) {
    const described = error.describe();
    return described
      ? answer(Code.INVALID_PARAMETER, described.message[locale], 200, { field: described.field })
      : answer(Code.INVALID_PARAMETER, codeMessage(Code.INVALID_PARAMETER, locale));
  }
  const fe = error as Partial<FastifyError>;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.code === 'FST_REQ_FILE_TOO_LARGE') {
    const text = msg('app.sentTooLarge');
    return answer(Code.INVALID_PARAMETER, localize(text, locale), 413, { field: 'body' });
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Malformed JSON, an unsupported content type, an empty JSON body...: the client's fault, said in words; the
    // parser's own text goes to the log only.
    request.log.info({ err: error }, 'request refused by the parser');
    const [field, text] =
      fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? ['content-type', msg('app.contentTypeNotSupported')]
        : error instanceof SyntaxError ||
            fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
            fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? ['body', msg('app.sentNotValidJson')]
          : ['request', msg('app.requestNotRightForm')];
    return answer(Code.INVALID_PARAMETER, localize(text, locale), 200, { field });
  }
  request.log.error({ err: error }, 'unexpected error');
  return answer(Code.INTERNAL_ERROR, codeMessage(Code.INTERNAL_ERROR, locale), 500);
}

/**
 * Business errors are HTTP 200 (the family's convention); an unknown path is also a 404 and a failure of ours (-5002,
 * which a plugin's route may throw too) a 500, so that proxies, monitors and retries see it for what it is.
 */
function defaultStatus(code: CodeValue, request: FastifyRequest): number {
  if (code === Code.INTERNAL_ERROR) return 500;
  return code === Code.RESOURCE_NOT_FOUND && isRouteMiss(request) ? 404 : 200;
}

/** The catch-all route: an unknown path, which is also an HTTP 404. */
function isRouteMiss(request: FastifyRequest): boolean {
  return request.routeOptions.url === '/api/*';
}
