/** The server's Chinese messages: access. */
export const access = {
  payJoiningFeeFirst: '请先支付站点加入费用',
  apiKeyReadOnly: '这个 API 密钥只能读取，不能写入',
  apiKeyNotAdmin: '这个 API 密钥不能访问管理后台',
  apiKeyNoIdentity: 'API 密钥不能登录、注册、绑定或解绑账号，也不能修改密码、支付密码、手机号或邮箱',
} as const;
