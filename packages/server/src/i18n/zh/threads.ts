/** The server's Chinese messages: threads. */
export const threads = {
  youNotPostPaid: '你没有在这个分类发布付费内容的权限',
  anonymous: '匿名',
  anonymousUser: '匿名用户',
  mayNotPostAnonymously: '你没有在这个分类匿名发帖的权限',
  memberDoesNotShow: '该用户没有公开点赞的内容',
  threadChangedMeanwhileTry: '主题刚被修改，请重试',
  threadNotFound: '主题不存在',
  postNotFound: '回复不存在',
  publishedThreadCannotBecome: '已发布的主题不能改回草稿',
  threadNotPublishedYet: '主题尚未发布',
  noPositionPermission: '你没有在这个分类插入位置信息的权限',
} as const;
