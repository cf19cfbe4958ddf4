/** The server's Chinese messages: threadParts. */
export const threadParts = {
  images: '图片',
  audio: '语音',
  video: '视频',
  goods: '商品',
  redPacket: '红包',
  reward: '悬赏',
  files: '附件',
  vote: '投票',
  notSupported: '不支持的帖子组件类型',
  noPermission: '你没有在这个分类插入{{part}}的权限',
} as const;
