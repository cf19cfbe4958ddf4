/** The server's Chinese messages: notEnabled. */
export const notEnabled = {
  cos: '本站未开启腾讯云对象存储（COS），请直接上传附件到本站',
  vod: '本站未开启腾讯云点播（VOD），请以附件形式上传视频',
  miniprogram: '本站未开启微信小程序',
  offiaccount: '本站未开启微信公众号 JS-SDK',
  wechatTransition: '本站的微信登录直接创建或登录账号，没有过渡阶段的绑定',
} as const;
