import type { Texts } from '../texts.js';
import type { withdrawals as zh } from '../zh/withdrawals.js';

/** The server's English messages: withdrawals (the keys of zh/withdrawals.ts). */
export const withdrawals = {
  mostWithdrawalsAppliedPer: 'At most {{count}} withdrawals may be applied for per day',
  withdrawalAmountLeast: 'The withdrawal amount must be at least {{min}}',
  withdrawalAmountMost: 'The withdrawal amount may be at most {{max}}',
  withdrawalAppliedFrozen: 'Withdrawal applied for (frozen)',
  noSuchWithdrawal: 'No such withdrawal',
  withdrawalNotStateDecision: 'This withdrawal is not in a state this decision applies to',
  frozenBalanceDoesNot: 'The frozen balance does not cover this withdrawal',
  payoutFailed: 'The payout failed',
  withdrawalRejectedReturned: 'Withdrawal rejected, returned',
  withdrawalPayoutFailedReturned: 'Withdrawal payout failed, returned',
  withdrawalPaidOut: 'Withdrawal paid out',
  payoutProviderDidNot:
    'The payout provider did not answer: the withdrawal stays approved; check with the provider, then mark it paid or reject it',
  payoutProviderNotConfirmed:
    'The payout provider has not confirmed it yet: the withdrawal stays approved; check with the provider, then mark it paid or reject it',
  payoutFailed2: 'The payout failed: {{reason}}',
} as const satisfies Texts<typeof zh>;
