/** The server's Chinese messages: notifications. */
export const notifications = {
  noSuchNotification: '通知不存在',
  anonymousActor: '匿名用户',
  withdrawalApproved: '已通过审核，等待打款',
  withdrawalPaid: '已打款',
  withdrawalRejected: '被驳回',
  withdrawalPayoutFailed: '打款失败',
} as const;
