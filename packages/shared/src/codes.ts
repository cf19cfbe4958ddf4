/**
 * Response codes of the envelope `{Code, Message, Data, RequestId, RequestTime}`.
 * The numbers are the product family's (see shared/spec); names are ours.
 * Programs branch on the number, people read the message.
 */
export const Code = {
  SUCCESS: 0,
  /** Client wrapper: any failed request that is not a time-out. */
  OTHER: -1,
  /** Client wrapper: 'timeout of N ms exceeded'. */
  TIMEOUT: -500,

  JUMP_TO_LOGIN: -3001,
  JUMP_TO_REGISTER: -3002,
  JUMP_TO_AUDIT: -3003,
  JUMP_TO_HOME_INDEX: -3004,
  SITE_CLOSED: -3005,
  JUMP_TO_PAY_SITE: -3006,
  JUMP_TO_SUPPLEMENTARY: -3007,

  INVALID_PARAMETER: -4001,
  UNAUTHORIZED: -4002,
  RESOURCE_EXIST: -4003,
  RESOURCE_NOT_FOUND: -4004,
  RESOURCE_IN_USE: -4005,
  CONTENT_BANNED: -4006,
  VALIDATE_REJECT: -4007,
  VALIDATE_IGNORE: -4008,
  USER_BANNED: -4009,
  RESOURCE_EXPIRED: -4010,
  INVALID_TOKEN: -4011,
  /**
   * Ours (the family had one per feature: -9001 SMS, -7081 mini-program, -11000 private messages): a call of the
   * family's client for a service this site does not run (Tencent Cloud COS and VOD, the WeChat mini-program, the
   * Official Account JS-SDK). The next number of the family's general -40xx block; `Data.feature` names the service.
   */
  NOT_ENABLED: -4012,
  /** Ours (the family had none): too many attempts, wait and retry. Mirrors HTTP 429. */
  TOO_MANY_REQUESTS: -4029,

  NET_ERROR: -5001,
  INTERNAL_ERROR: -5002,
  DB_ERROR: -5003,
  EXTERNAL_API_ERROR: -5004,
  SENSITIVE_WORD_ERROR: -5005,
  UNKNOWN_ERROR: -6001,
  DEBUG_ERROR: -6002,

  USERNAME_EXISTS: -7042,
  CANNOT_FOLLOW_SELF: -7059,
  BLOCKED_BY_USER: -7061,
  LOGIN_FAILED: -7062,
  USER_DENIED: -7068,
  CATEGORY_NOT_FOUND: -7076,

  NEED_BIND_WECHAT: -8000,
  NEED_BIND_PHONE: -8001,
  SMS_OFF: -9001,
  SMS_CODE_WRONG: -9002,
  SMS_CODE_EXPIRED: -9003,
  PAYMENT_FAILED: -10000,
  SITE_NOT_INSTALLED: -10001,
  DIALOG_DISABLED: -11000,
} as const;

export type CodeName = keyof typeof Code;
export type CodeValue = (typeof Code)[CodeName];

/** Default message of each code, in both locales. A thrown error may carry a more precise one. */
export const CODE_MESSAGES: Record<CodeValue, { zh: string; en: string }> = {
  [Code.SUCCESS]: { zh: '成功', en: 'success' },
  [Code.OTHER]: { zh: '请求失败', en: 'request failed' },
  [Code.TIMEOUT]: { zh: '请求超时', en: 'request timed out' },
  [Code.JUMP_TO_LOGIN]: { zh: '请先登录', en: 'please log in first!' },
  [Code.JUMP_TO_REGISTER]: { zh: '请先注册', en: 'please register first' },
  [Code.JUMP_TO_AUDIT]: { zh: '账号审核中', en: 'your account is under review' },
  [Code.JUMP_TO_HOME_INDEX]: { zh: '请返回首页', en: 'please go back to the home page' },
  [Code.SITE_CLOSED]: { zh: '站点已关闭', en: 'the site is closed' },
  [Code.JUMP_TO_PAY_SITE]: { zh: '请先付费加入站点', en: 'please pay to join the site' },
  [Code.JUMP_TO_SUPPLEMENTARY]: {
    zh: '请先补充注册信息',
    en: 'please complete your sign-up information',
  },
  [Code.INVALID_PARAMETER]: { zh: '参数错误', en: 'invalid parameter' },
  [Code.UNAUTHORIZED]: { zh: '没有权限', en: 'you do not have permission' },
  [Code.RESOURCE_EXIST]: { zh: '资源已存在', en: 'resource already exists' },
  [Code.RESOURCE_NOT_FOUND]: { zh: '资源不存在', en: 'resource not found' },
  [Code.RESOURCE_IN_USE]: { zh: '资源使用中', en: 'resource in use' },
  [Code.CONTENT_BANNED]: { zh: '内容包含违禁词', en: 'the content contains a banned word' },
  [Code.VALIDATE_REJECT]: { zh: '审核未通过', en: 'your account was rejected' },
  [Code.VALIDATE_IGNORE]: { zh: '审核已忽略', en: 'your account review was ignored' },
  [Code.USER_BANNED]: { zh: '用户已被禁用', en: 'this account is banned' },
  [Code.RESOURCE_EXPIRED]: { zh: '资源已过期', en: 'resource expired' },
  [Code.INVALID_TOKEN]: { zh: '登录已失效，请重新登录', en: 'invalid or expired token' },
  [Code.NOT_ENABLED]: { zh: '本站未开启此功能', en: 'this feature is not enabled on this site' },
  [Code.TOO_MANY_REQUESTS]: {
    zh: '操作过于频繁，请稍后再试',
    en: 'too many attempts, please wait and try again',
  },
  [Code.NET_ERROR]: { zh: '网络错误', en: 'network error' },
  [Code.INTERNAL_ERROR]: { zh: '服务器内部错误', en: 'internal error' },
  [Code.DB_ERROR]: { zh: '数据库错误', en: 'database error' },
  [Code.EXTERNAL_API_ERROR]: { zh: '外部接口错误', en: 'external API error' },
  [Code.SENSITIVE_WORD_ERROR]: { zh: '敏感词检查失败', en: 'sensitive-word check failed' },
  [Code.UNKNOWN_ERROR]: { zh: '未知错误', en: 'unknown error' },
  [Code.DEBUG_ERROR]: { zh: '调试错误', en: 'debug error' },
  [Code.USERNAME_EXISTS]: { zh: '用户名已存在', en: 'username already exists' },
  [Code.CANNOT_FOLLOW_SELF]: { zh: '不能关注自己', en: 'you cannot follow yourself' },
  [Code.BLOCKED_BY_USER]: { zh: '对方已将你屏蔽', en: 'you have been blocked by this user' },
  [Code.LOGIN_FAILED]: { zh: '用户名或密码错误', en: 'wrong username or password' },
  [Code.USER_DENIED]: { zh: '你已屏蔽该用户', en: 'you have blocked this user' },
  [Code.CATEGORY_NOT_FOUND]: { zh: '分类不存在', en: 'category not found' },
  [Code.NEED_BIND_WECHAT]: { zh: '请先绑定微信', en: 'please bind WeChat first' },
  [Code.NEED_BIND_PHONE]: { zh: '请先绑定手机号', en: 'please bind a phone number first' },
  [Code.SMS_OFF]: { zh: '短信服务未开启', en: 'SMS is not enabled' },
  [Code.SMS_CODE_WRONG]: { zh: '验证码错误', en: 'wrong verification code' },
  [Code.SMS_CODE_EXPIRED]: { zh: '验证码已过期', en: 'verification code expired' },
  [Code.PAYMENT_FAILED]: { zh: '支付失败', en: 'payment failed' },
  [Code.SITE_NOT_INSTALLED]: { zh: '站点未安装', en: 'site not installed' },
  [Code.DIALOG_DISABLED]: { zh: '私信功能已关闭', en: 'private messages are disabled' },
};
