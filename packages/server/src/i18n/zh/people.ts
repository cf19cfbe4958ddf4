/** The server's Chinese messages: people. */
export const people = {
  noSuchUser: '用户不存在',
  youCannotBlockYourself: '不能屏蔽自己',
} as const;
