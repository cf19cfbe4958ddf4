/** The server's Chinese messages: withdrawals. */
export const withdrawals = {
  mostWithdrawalsAppliedPer: '每天最多申请 {{count}} 次提现',
  withdrawalAmountLeast: '提现金额不能少于 {{min}} 元',
  withdrawalAmountMost: '单次提现金额不能超过 {{max}} 元',
  withdrawalAppliedFrozen: '提现冻结',
  noSuchWithdrawal: '提现记录不存在',
  withdrawalNotStateDecision: '该提现当前的状态不能执行此操作',
  frozenBalanceDoesNot: '冻结金额不足，无法完成',
  payoutFailed: '打款失败',
  withdrawalRejectedReturned: '提现被驳回，退回',
  withdrawalPayoutFailedReturned: '提现打款失败，退回',
  withdrawalPaidOut: '提现成功',
  payoutProviderDidNot: '打款渠道没有应答：提现仍为已通过，请向渠道核实后标记为已打款或驳回',
  payoutProviderNotConfirmed: '打款渠道尚未确认结果：提现仍为已通过，请向渠道核实后标记为已打款或驳回',
  payoutFailed2: '打款失败：{{reason}}',
} as const;
