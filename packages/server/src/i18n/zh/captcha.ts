/** The server's Chinese messages: captcha. */
export const captcha = {
  completeCaptchaFirst: '请先完成人机验证',
  captchaCheckFailedTry: '人机验证未通过，请重新验证',
} as const;
