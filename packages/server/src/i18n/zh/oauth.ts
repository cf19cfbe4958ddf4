/** The server's Chinese messages: oauth. */
export const oauth = {
  accountNotLinked: '没有关联这个账号',
  onlyWaySignSet: '这是你登录的唯一方式：请先设置密码或关联其他账号，再解除关联',
  noSuchSignProvider: '登录方式不存在',
  clientSecretRequired: '请填写客户端密钥',
  slugTaken: '标识 {{slug}} 已被使用',
  accountsLinkedProviderSo: '已有 {{linked}} 个账号关联了这个登录方式，不能删除；可以停用它',
} as const;
