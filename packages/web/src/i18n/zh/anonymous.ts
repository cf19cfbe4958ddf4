/** Chinese messages: anonymous threads (thread.allowAnonymous). */
export const anonymous = {
  anonymous: {
    user: '匿名用户',
    mark: '匿名',
    markTitle: '这个主题匿名发布：其他人看到的作者是“匿名用户”',
    checkbox: '匿名发布',
    hint: '其他人看不到你是作者；你在主题下的回复仍显示你的名字。',
  },
} as const;
