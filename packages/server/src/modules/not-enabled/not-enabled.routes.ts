import { Code } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';
import { msg, type MessageKey } from '../../i18n/index.js';

/** A service of the family's that this site does not run; `Data.feature` of the answer. */
type Feature = 'cos' | 'vod' | 'miniprogram' | 'offiaccount' | 'wechatTransition';

const MESSAGES = {
  cos: 'notEnabled.cos',
  vod: 'notEnabled.vod',
  miniprogram: 'notEnabled.miniprogram',
  offiaccount: 'notEnabled.offiaccount',
  wechatTransition: 'notEnabled.wechatTransition',
} as const satisfies Record<Feature, MessageKey>;

/**
 * The calls of the family's web client (Discuz! Q v3) that need Tencent Cloud (COS uploads, VOD videos), a WeChat
 * mini-program / Official Account or the WeChat transition stage, which Luntan has no counterpart of. They answer -4012 with a sentence that says
 * so rather than the unknown-path 404, so that the client shows a message instead of its 404 page. Methods as the
 * client calls them (test-data/dzq-client-api-paths.tsv).
 */
export const NOT_ENABLED_CALLS: ReadonlyArray<{ method: 'GET' | 'POST'; url: string; feature: Feature }> = [
  { method: 'POST', url: '/v3/coskey', feature: 'cos' },
  // Confirms a file the client put into COS itself (cosUrl, after coskey): uploads here go to POST attachments.
  { method: 'POST', url: '/v3/attachment.relation', feature: 'cos' },
  { method: 'GET', url: '/v3/signature', feature: 'vod' },
  { method: 'POST', url: '/v3/thread/video', feature: 'vod' },
  { method: 'GET', url: '/v3/offiaccount/jssdk', feature: 'offiaccount' },
  { method: 'GET', url: '/v3/oauth/wechat/miniprogram/code', feature: 'miniprogram' },
  // A poster's QR code is a mini-program code (the family answered -7087, "open the H5 mini-program setting").
  { method: 'GET', url: '/v3/users/mobilebrowser/wechat.poster.genqrcode', feature: 'miniprogram' },
  { method: 'GET', url: '/v3/users/mobilebrowser/wechat/miniprogram.genscheme', feature: 'miniprogram' },
  { method: 'GET', url: '/v3/users/mobilebrowser/wechat/miniprogram.genbindscheme', feature: 'miniprogram' },
  { method: 'GET', url: '/v3/users/mobilebrowser/wechat/miniprogram.genparamscheme', feature: 'miniprogram' },
  { method: 'GET', url: '/v3/users/pc/wechat/miniprogram.genqrcode', feature: 'miniprogram' },
  { method: 'GET', url: '/v3/users/pc/wechat/miniprogram.login', feature: 'miniprogram' },
  { method: 'GET', url: '/v3/users/pc/wechat/miniprogram.bind', feature: 'miniprogram' },
  { method: 'POST', url: '/v3/users/wechat/miniprogram.login', feature: 'miniprogram' },
  { method: 'POST', url: '/v3/users/wechat/miniprogram.bind', feature: 'miniprogram' },
  { method: 'POST', url: '/v3/users/wechat/miniprogram.rebind', feature: 'miniprogram' },
  // The family's "transition stage" (is_need_transition): a new WeChat user was held in a session until they bound
  // an account by SMS or let one be made from their nickname. Here WeChat sign-in makes the account at once
  // (users/wechat/h5.login), so the switch is never on: the family answered -7048 (transition not open) then.
  { method: 'POST', url: '/v3/users/wechat/transition/sms.bind', feature: 'wechatTransition' },
  { method: 'GET', url: '/v3/users/wechat/transition/username.autobind', feature: 'wechatTransition' },
];

export async function notEnabledRoutes(app: FastifyInstance): Promise<void> {
  for (const { method, url, feature } of NOT_ENABLED_CALLS) {
    app.route({
      method,
      url,
      schema: {
        tags: ['not enabled'],
        summary: `A call of the family's client for a service this site does not run (${feature}): always -4012`,
      },
      handler: async () => {
        throw new AppError(Code.NOT_ENABLED, msg(MESSAGES[feature]), { data: { feature } });
      },
    });
  }
}
