/** The server's Chinese messages: mail. */
export const mail = {
  siteDoesNotSend: '本站未开启邮件服务，无法发送邮件',
  emailAddressAlreadyUsed: '该邮箱已被其他账号使用',
  linkExpiredAlreadyUsed: '链接已失效或已被使用，请重新获取',
  alreadyEmailAddress: '这已经是你的邮箱了',
  emailCouldNotSent: '邮件发送失败，请稍后再试',
} as const;
