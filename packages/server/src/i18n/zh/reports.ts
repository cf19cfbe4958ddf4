/** The server's Chinese messages: reports. */
export const reports = {
  sayWhichUser: '请指定要举报的用户',
  sayWhichThread: '请指定要举报的主题',
  sayWhichReply: '请指定要举报的回复',
  noSuchUser: '用户不存在',
  youAlreadyReportedAdministrator: '你已举报过，请等待管理员处理',
  cannotReportYourself: '不能举报自己',
  cannotReportYourPost: '不能举报自己发布的内容',
} as const;
