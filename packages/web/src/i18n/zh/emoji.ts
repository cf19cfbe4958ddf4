/** Chinese messages: the emoji picker. */
export const emoji = {
  emoji: {
    button: '表情',
    panel: '选择表情',
    search: '搜索表情',
    noResults: '没有找到表情',
    loading: '正在加载表情…',
    loadFailed: '表情加载失败',
    close: '关闭',
    categories: {
      recent: '最近使用',
      site: '本站表情',
      'smileys-emotion': '笑脸与情感',
      'people-body': '人物与身体',
      'animals-nature': '动物与自然',
      'food-drink': '食物与饮料',
      'travel-places': '旅行与地点',
      activities: '活动',
      objects: '物品',
      symbols: '符号',
      flags: '旗帜',
    },
  },
} as const;
