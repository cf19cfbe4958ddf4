/** The server's Chinese messages: posts. */
export const posts = {
  threadNotPublishedYet: '主题尚未发布',
  commentAnsweredNotUnder: '所回复的评论不在这条回复下',
  commentNeedsReplyOn: '评论需要指明所评论的回复',
  firstPostGoesThread: '首帖不能单独删除，请删除主题',
  historyNotAllowed: '只有作者、版主和管理员可以查看编辑记录',
  versionNotFound: '没有这个版本',
} as const;
