/* The payments module's public face: the provider layer that orders and withdrawals use, and its admin route. */
export { paymentsRoutes } from './payments.routes.js';
export {
  ensureSandboxSecret,
  isSandboxOn,
  offeredTypes,
  payoutThrough,
  providerByName,
  providerForType,
  sandboxSecret,
} from './payments.service.js';
export { releaseSandboxPayouts, SANDBOX_SIGNATURE_HEADER, sandboxCallback } from './providers/sandbox.js';
export {
  InvalidCallbackError,
  type PaymentNotice,
  type PaymentStart,
  type PaymentTypeValue,
} from './providers/types.js';
