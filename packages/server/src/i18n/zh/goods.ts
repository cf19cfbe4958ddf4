/** The server's Chinese messages: goods. */
export const goods = {
  noPermission: '你没有插入商品的权限',
  loopback: '不能识别本机回环地址上的网页：{{address}}',
  private: '不能识别内网地址上的网页：{{address}}',
  linkLocal: '不能识别链路本地地址上的网页：{{address}}',
  special: '不能识别特殊用途地址上的网页：{{address}}',
  onlyHttp: '只能识别 http:// 或 https:// 开头的网址',
  hostNotFound: '找不到主机 {{host}}',
  timeout: '商品页在 {{seconds}} 秒内没有回应，请手动填写商品信息',
  tooManyRedirects: '商品页跳转次数过多，请手动填写商品信息',
  unreachable: '无法打开商品页，请手动填写商品信息',
  badStatus: '商品页回应了 {{status}}，请手动填写商品信息',
  notHtml: '这个地址不是网页（{{type}}），请手动填写商品信息',
  nothingFound: '没有在这个网页找到商品信息，请手动填写',
} as const;
