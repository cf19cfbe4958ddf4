/** The server's Chinese messages: invites. */
export const invites = {
  noSuchInvitation: '邀请链接不存在',
  youNotInviteNewcomers: '你不能邀请新用户加入用户组「{{name}}」',
  invitationLinkNotValid: '邀请链接无效或已过期，请向邀请人索取新的链接',
  siteInvitationOnlyRegister: '本站仅限受邀注册，请通过邀请链接注册',
} as const;
