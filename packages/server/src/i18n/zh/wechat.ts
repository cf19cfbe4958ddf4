/** The server's Chinese messages: wechat. */
export const wechat = {
  wechatAnsweredError: '微信接口出错：{{detail}}',
  wechatSignNotEnabled: '本站没有开启微信登录',
  wechatAuthorisationExpiredStart: '微信授权已过期，请重新开始',
  qrCodeExpiredRefresh: '二维码已失效，请刷新',
} as const;
