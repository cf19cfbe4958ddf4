/** Chinese messages: topics (`#name#`). */
export const topics = {
  topics: {
    title: '话题',
    hot: '热门话题',
    all: '全部话题',
    more: '更多话题',
    none: '还没有话题',
    searchLabel: '搜索话题',
    searchPlaceholder: '输入话题名称',
    search: '搜索',
    noMatch: '没有找到相关话题',
    threadCount_one: '{{count}} 篇内容',
    threadCount_other: '{{count}} 篇内容',
    viewCount_one: '{{count}} 次浏览',
    viewCount_other: '{{count}} 次浏览',
    threads: '相关内容',
    empty: '这个话题下还没有你能看到的内容',
    notFound: '话题不存在',
    suggestions: '话题建议',
    newTopic: '新话题',
    hint: '输入 #话题名# 参与话题',
  },
} as const;
