/** The server's Chinese messages: settings. */
export const settings = {
  noSettingNamed: '没有名为 {{key}}（{{tag}}）的设置项',
  wholeNumberFromTo: '{{key}} 需要是 {{min}} 到 {{max}} 的整数',
  wholeNumberAtLeast: '{{key}} 需要是不小于 {{min}} 的整数',
  httpAddress: '{{key}} 需要是 http:// 或 https:// 开头的网址',
  imagePathOrAddress: '{{key}} 需要是本站图片路径或 http:// 、https:// 开头的网址',
  smtpUrlFormat: 'smtpUrl 需要是 smtp:// 或 smtps:// 开头的地址，例如 smtps://用户名:密码@smtp.example.com:465',
  settingCannotRead: '该设置不可读取',
  image: '图片',
  chooseImageUpload: '请选择要上传的图片',
  imageEmpty: '图片是空的',
  imageMost5Mb: '图片不能超过 5 MB',
  onlyPngJpegGif: '只支持 PNG、JPEG、GIF、WebP 图片（favicon 另可用 ICO）',
  imageDataUrl: '图片需要是 data URL 格式',
} as const;
