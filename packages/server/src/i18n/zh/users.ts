/** The server's Chinese messages: users. */
export const users = {
  enterCurrentPasswordSet: '修改密码需要填写当前密码',
  currentPasswordWrong: '当前密码不正确',
  usernameCannotChangedOnly: '用户名不能再修改：只有系统生成的用户名可以修改一次',
} as const;
