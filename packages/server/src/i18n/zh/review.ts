/** The server's Chinese messages: review. */
export const review = {
  threadNotHeld: '主题 {{id}} 不在审核中',
  postNotHeld: '回复 {{id}} 不在审核中',
  threadMissing: '主题 {{id}} 不存在',
  postMissing: '回复 {{id}} 不存在',
} as const;
