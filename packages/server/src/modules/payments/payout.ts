import type { AppContext } from '../../context.js';
import type { PayoutRequest, PayoutResult } from './providers/types.js';

/*
 * Placeholder until payments.service.ts lands with the same signature (the withdrawals module imports it from here
 * meanwhile; the merge moves the import). Only the sandbox pays out: always successfully, with a recognisable
 * transaction number.
 */
export async function payoutThrough(_ctx: AppContext, provider: string, request: PayoutRequest): Promise<PayoutResult> {
  if (provider === 'sandbox') return { ok: true, tradeNo: `SBX${request.cashSn}` };
  throw new Error(`no payout provider named ${provider}`);
}
