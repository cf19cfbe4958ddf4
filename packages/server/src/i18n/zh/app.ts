/** The server's Chinese messages: app. */
export const app = {
  noSuchApi: '接口不存在',
  sentTooLarge: '提交的内容太大了',
  contentTypeNotSupported: '不支持这种提交格式',
  sentNotValidJson: '提交的内容不是有效的 JSON',
  requestNotRightForm: '请求格式不正确',
} as const;
