/** The server's Chinese messages: finance. */
export const finance = {
  startDateFormat: '开始日期需要是 2026-11-01 这样的日期或 ISO 时间',
  endDateFormat: '结束日期需要是 2026-11-01 这样的日期或 ISO 时间',
  endDateCannotBefore: '结束日期不能早于开始日期',
  rangeSpanMostYears: '统计范围最多 {{chartMaxYears}} 年',
  giveAmount: '请填写金额',
  chooseAddSubtract: '请选择增加或减少',
  giveAmountAddSubtract: '请给出要增减的金额或钱包状态',
  noSuchUser: '用户不存在',
  addedAdministrator: '管理员增加余额',
  subtractedAdministrator: '管理员扣除余额',
  startTimeFormat: '开始时间需要是 2026-11-01 这样的日期或 ISO 时间',
  endTimeFormat: '结束时间需要是 2026-11-01 这样的日期或 ISO 时间',
} as const;
