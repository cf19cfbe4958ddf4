/** The server's Chinese messages: wallet. */
export const wallet = {
  thereNotEnoughMoney: '钱包余额不足',
  walletFrozen: '钱包已被冻结',
  notValidTime: '{{field}} 不是有效的时间',
  loginPasswordNotCorrect: '登录密码不正确',
  setPayPasswordFirst: '请先设置支付密码',
  walletFrozen2: '钱包已被冻结',
  enterPayPassword: '请输入支付密码',
  wrongPayPasswordLeft: '支付密码错误，还可以再试 {{left}} 次',
  tooManyWrongPay: '支付密码错误次数过多，请 {{minutes}} 分钟后再试',
  /** The opening entry of a wallet imported from Discuz! Q (ledger type 190). */
  openingBalanceImported: '期初余额（导入：旧站明细与余额之差）',
} as const;
