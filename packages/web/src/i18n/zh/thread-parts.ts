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
    files: {
      upload: '上传文件',
      price: '附件价格（可选，单独购买）',
      title: '附件（{{count}}）',
      download: '下载',
      locked: '附件需单独购买：¥{{amount}}',
      buy: '购买附件 ¥{{amount}}',
      loginToBuy: '登录后购买附件',
      noDownload: '你没有下载附件的权限',
      hidden: '你没有查看附件的权限',
    },
    media: {
      upload: { audio: '上传音频', video: '上传视频' },
      formats: '支持的格式：{{formats}}',
      noVideo: '你没有查看视频的权限，或需要先购买主题',
      noAudio: '需要先购买主题才能收听',
    },
    images: {
      upload: '上传图片',
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
