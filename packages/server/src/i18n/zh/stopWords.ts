/** The server's Chinese messages: stopWords. */
export const stopWords = {
  line: '第 {{value}} 行：{{parsedZh}}',
  noWordGiven: '没有敏感词',
  noSuchStopWord: '敏感词不存在',
} as const;
