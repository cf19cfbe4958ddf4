/** The server's Chinese messages: adminUsers. */
export const adminUsers = {
  noSuchUser: '用户不存在',
  noSuchUserGroup: '用户组不存在',
  guestGroupVisitorsOnly: '游客组不能分配给用户',
  youCannotLeaveAdministrator: '不能把自己移出管理员组',
  youCannotChangeOwn: '不能修改自己的状态',
  administratorCannotBannedRemove: '不能禁用管理员，请先将其移出管理员组',
  userNotUnderReview: '用户 {{username}} 不在审核中',
} as const;
