/** The server's Chinese messages: core. */
export const core = {
  sentNotValidUtf: '提交的内容不是有效的 UTF-8 文本',
  sentNestedTooDeeply: '提交的内容嵌套太深：最多 {{maxJsonDepth}} 层',
  sentCutShortConnection: '提交的内容不完整：连接在请求体传完之前就结束了，请重新提交',
  imageTooLargeMost: '图片太大了：最多 {{value}} 万像素，请缩小后再上传',
  animationTooLargeMost: '动图太大了：最多 {{maxAnimationFrames}} 帧，所有帧合计最多 {{value}} 万像素',
  imageDamagedCannotRead: '图片已损坏，无法读取，请换一张图片',
  sendMultipartFormData: '请以 multipart/form-data 上传{{labelZh}}',
  most: '{{labelZh}}不能超过 {{sizeText}}',
  uploadCutShortMalformed: '上传的{{labelZh}}不完整或格式不正确，请重新上传',
  tooManyAttemptsWait: '尝试次数过多，请 {{seconds}} 秒后再试',
  requestFromAnotherSite: '已拒绝来自其他网站的请求',
} as const;
