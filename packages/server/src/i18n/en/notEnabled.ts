import type { Texts } from '../texts.js';
import type { notEnabled as zh } from '../zh/notEnabled.js';

/** The server's English messages: notEnabled (the keys of zh/notEnabled.ts). */
export const notEnabled = {
  cos: 'Tencent Cloud object storage (COS) is not enabled on this site: upload attachments to the site itself',
  vod: 'Tencent Cloud video on demand (VOD) is not enabled on this site: upload videos as attachments',
  miniprogram: 'The WeChat mini-program is not enabled on this site',
  offiaccount: 'The WeChat Official Account JS-SDK is not enabled on this site',
  wechatTransition:
    'WeChat sign-in here creates or signs in to an account directly: there is no transition stage to bind in',
} as const satisfies Texts<typeof zh>;
