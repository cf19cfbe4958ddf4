/** The server's Chinese messages: votes. */
export const votes = {
  endPassed: '结束时间需要晚于现在',
  endTooFar: '结束时间最晚为一年后',
  choiceLocked: '已有人投票，不能更改选择类型',
  noSuchOption: '投票中没有这个选项',
  notFound: '投票不存在',
  ended: '投票已结束',
  singleChoice: '该投票是单选，只能选一项',
  alreadyVoted: '已投票，不可再投',
  notPublished: '主题发布后才能投票',
} as const;
