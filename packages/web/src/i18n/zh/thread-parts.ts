/** Chinese messages: thread parts (files, audio, video, goods, red packets, bounties, votes, position). */
export const threadParts = {
  threadParts: {
    title: '帖子组件',
    add: '插入',
    remove: '移除',
    notReady: '请填写完整：{{parts}}',
    names: {
      101: '图片',
      102: '语音',
      103: '视频',
      104: '商品',
      106: '红包',
      107: '悬赏',
      108: '附件',
      109: '投票',
    },
    goods: {
      link: '商品链接',
      name: '商品名称',
      price: '价格',
      picture: '商品图片地址',
      open: '查看商品',
    },
  },
} as const;
