import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  InvalidCallbackError,
  PaymentType,
  yuanToCents,
  centsToYuan,
  type CallbackInput,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStart,
  type PayoutRequest,
  type PayoutResult,
} from './types.js';

/** The signature header of the sandbox's callbacks: hex HMAC-SHA256 of the raw body with the site's sandbox secret. */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** A callback older than this is refused (replays of a fresh one are harmless: applying is idempotent). */
const MAX_AGE_MS = 5 * 60 * 1000;

export interface SandboxCallbackBody {
  orderSn: string;
  tradeNo: string;
  amount: string;
  outcome: 'paid' | 'failed';
  timestamp: number;
}

/**
 * The sandbox provider: a payment provider that lives on the forum itself, for development and tests. Its
 * "checkout" is the forum's page /pay/sandbox, where the payer confirms or fails the payment; the forum then calls
 * back, signed with the site's own secret, through the same callback path the real providers use
 * (POST /api/v3/pay/notify/sandbox), so everything after the provider's page is exercised exactly as in production.
 */
export function createSandboxProvider(secret: string): PaymentProvider {
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest('hex');
  return {
    name: 'sandbox',
    paymentTypes: [PaymentType.SANDBOX],
    async createPayment(request: PaymentRequest): Promise<PaymentStart> {
      const returnPath = new URL(request.returnUrl).pathname + new URL(request.returnUrl).search;
      const url = `/pay/sandbox?orderSn=${encodeURIComponent(request.orderSn)}&return=${encodeURIComponent(returnPath)}`;
      return { kind: 'redirect', url };
    },
    async verifyCallback(input: CallbackInput): Promise<PaymentNotice> {
      const given = input.headers[SANDBOX_SIGNATURE_HEADER];
      if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) throw new InvalidCallbackError('no signature');
      const expected = Buffer.from(sign(input.rawBody), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) throw new InvalidCallbackError('bad signature');
      let body: SandboxCallbackBody;
      try {
        body = JSON.parse(input.rawBody) as SandboxCallbackBody;
      } catch {
        throw new InvalidCallbackError('not JSON');
      }
      if (typeof body.timestamp !== 'number' || Math.abs(Date.now() - body.timestamp) > MAX_AGE_MS) {
        throw new InvalidCallbackError('stale callback');
      }
      const amountCents = typeof body.amount === 'string' ? yuanToCents(body.amount) : null;
      if (typeof body.orderSn !== 'string' || typeof body.tradeNo !== 'string' || amountCents === null) {
        throw new InvalidCallbackError('malformed callback');
      }
      return { orderSn: body.orderSn, tradeNo: body.tradeNo, amountCents, paid: body.outcome === 'paid' };
    },
    answer(ok: boolean) {
      return { status: ok ? 200 : 400, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' };
    },
    async refund() {
      return { ok: true };
    },
    async payout(request) {
      return sandboxPayout(request);
    },
  };
}

/** What the forum sends to its own callback path when the sandbox checkout decides: the body and its signature. */
export function sandboxCallback(
  secret: string,
  order: { orderSn: string; amountCents: number },
  outcome: 'paid' | 'failed',
): { body: string; signature: string } {
  const payload: SandboxCallbackBody = {
    orderSn: order.orderSn,
    tradeNo: `SBX${randomBytes(8).toString('hex')}`,
    amount: centsToYuan(order.amountCents),
    outcome,
    timestamp: Date.now(),
  };
  const body = JSON.stringify(payload);
  return { body, signature: createHmac('sha256', secret).update(body).digest('hex') };
}

/** A held payout (`sandbox-hold…`) that nobody lets go answers by itself after this long. */
const HOLD_LIMIT_MS = 60_000;
const heldPayouts = new Set<() => void>();

/**
 * Lets every held sandbox payout of this process answer (paid). A test holds one to act while it is in flight,
 * however slow the machine is, and lets it go here.
 */
export function releaseSandboxPayouts(): void {
  for (const release of [...heldPayouts]) release();
}

function held(): Promise<void> {
  return new Promise((resolve) => {
    const release = () => {
      clearTimeout(limit);
      heldPayouts.delete(release);
      resolve();
    };
    const limit = setTimeout(release, HOLD_LIMIT_MS);
    heldPayouts.add(release);
  });
}

/**
 * The sandbox pays every withdrawal out at once, except to its test accounts, which play what real providers do:
 * `sandbox-refuse…` is refused ("account closed"), `sandbox-pending…` is still being processed (outcome unknown),
 * `sandbox-error…` does not answer (throws), `sandbox-hold…` answers (paid) once released (releaseSandboxPayouts),
 * or after a minute.
 */
async function sandboxPayout(request: PayoutRequest): Promise<PayoutResult> {
  const account = request.account.toLowerCase();
  if (account.startsWith('sandbox-refuse')) return { ok: false, reason: 'account closed' };
  if (account.startsWith('sandbox-pending')) return { ok: false, pending: true, reason: 'processing' };
  if (account.startsWith('sandbox-error')) throw new Error('the sandbox payout did not answer');
  if (account.startsWith('sandbox-hold')) await held();
  return { ok: true, tradeNo: `SBX${request.cashSn}` };
}
