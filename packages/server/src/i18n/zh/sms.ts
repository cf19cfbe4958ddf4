/** The server's Chinese messages: sms. */
export const sms = {
  numberAlreadyBoundAnother: '该手机号已绑定其他账号',
  youAlreadyBoundNumber: '你已绑定手机号，如需更换请使用“更换手机号”',
  youNoBoundNumber: '你还没有绑定手机号',
  notNumberBoundAccount: '这不是你绑定的手机号',
  newNumberCurrentOne: '新手机号与当前手机号相同',
  smsCouldNotSent: '短信发送失败，请稍后再试',
  noAccountNumberSite: '该手机号尚未注册，本站暂不开放注册',
  codeExpiredNoLonger: '验证码已过期或已失效，请重新获取',
  tooManyWrongAnswers: '验证码错误次数过多，已失效，请重新获取',
  wrongCodeMoreTries: '验证码错误，还可以再试 {{left}} 次',
  codeAlreadyUsed: '验证码已使用',
  verifyCurrentNumberFirst: '请先验证当前手机号（10 分钟内有效）',
  codeAlreadyUsed2: '验证码已使用',
} as const;
