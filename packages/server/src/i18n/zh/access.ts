/** The server's Chinese messages: access. */
export const access = {
  payJoiningFeeFirst: '请先支付站点加入费用',
} as const;
