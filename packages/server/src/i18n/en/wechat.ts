import type { Texts } from '../texts.js';
import type { wechat as zh } from '../zh/wechat.js';

/** The server's English messages: wechat (the keys of zh/wechat.ts). */
export const wechat = {
  wechatAnsweredError: 'WeChat answered with an error: {{detail}}',
  wechatSignNotEnabled: 'WeChat sign-in is not enabled on this site',
  wechatAuthorisationExpiredStart: 'The WeChat authorisation has expired: please start again',
  qrCodeExpiredRefresh: 'The QR code has expired: refresh it',
} as const satisfies Texts<typeof zh>;
