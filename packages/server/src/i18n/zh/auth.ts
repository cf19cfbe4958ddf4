/** The server's Chinese messages: auth. */
export const auth = {
  readAcceptRegistrationAgreement: '请阅读并同意注册协议和隐私政策',
  registrationClosed: '站点已关闭注册',
} as const;
