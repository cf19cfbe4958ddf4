/** The server's Chinese messages: notificationTemplates. */
export const notificationTemplates = {
  userName: '用户名',
  nickname: '昵称',
  siteName: '站点名称',
  userGroup: '用户组',
  reason: '原因',
  content: '内容',
  actingUser: '操作的用户',
  amount: '金额',
  formerGroup: '原用户组',
  newGroup: '新用户组',
  outcome: '处理结果',
  remark: '处理说明',
  noSuchNotificationType: '通知类型不存在',
  noSuchTemplate: '通知模板不存在',
  titleUnknownPlaceholder: '标题中有不支持的变量 {{unknown}}，可用：{{available}}',
  contentUnknownPlaceholder: '内容中有不支持的变量 {{unknown}}，可用：{{available}}',
} as const;
