import { Code } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import { now } from '../core/time.js';
import type { ViewerContext } from './viewer-context.js';
import { msg } from '../i18n/index.js';

/*
 * Paid joining (siteMode 'pay'): a member whose joining fee has run out (users.paid_until reached; set to the
 * registration time for members who register while the site is paid) may only pay, read the site and leave until
 * they pay. Members with paid_until null joined while the site was free and never pay; administrators never do.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** The viewer must pay to join before anything else (set per /api request, api.ts). */
    owesJoiningFee?: boolean;
  }
}

/** Whether the viewer must pay the joining fee now. */
export function owesJoiningFee(viewer: ViewerContext, siteMode: string, at = now()): boolean {
  const user = viewer.user;
  return user !== null && !viewer.isAdmin && siteMode === 'pay' && user.paidUntil !== null && user.paidUntil <= at;
}

/**
 * What a member who owes the joining fee may call: the site and who they are (forum says `user.paid: false`),
 * leaving, the event stream (its events only make the page read the API again), and what paying takes: the order
 * (order.create of type 1 only, checked on the body), paying it, reading it, the payment methods, the providers'
 * callbacks, the sandbox checkout, the wallet and its pay password.
 */
const OPEN_TO_UNPAID = new Set([
  '/api/siteinfo.v2',
  '/api/v3/forum',
  '/api/v3/users/logout',
  '/api/v3/live',
  '/api/v3/order.create',
  '/api/v3/trade/pay/order',
  '/api/v3/order.detail',
  '/api/v3/pay/methods',
  '/api/v3/pay/sandbox/complete',
  '/api/v3/wallet/user',
  '/api/v3/users/pay-password/reset',
]);

export const isOpenToUnpaid = (url: string): boolean =>
  OPEN_TO_UNPAID.has(url) || url.startsWith('/api/v3/pay/notify/');

export const joiningFeeError = () => new AppError(Code.JUMP_TO_PAY_SITE, msg('access.payJoiningFeeFirst'));

/** preValidation: of the orders, a member who owes the joining fee may create only the joining fee's (type 1). */
export async function refuseOtherOrders(request: FastifyRequest): Promise<void> {
  if (!request.owesJoiningFee || request.routeOptions.url !== '/api/v3/order.create') return;
  const type = (request.body as { type?: unknown } | null | undefined)?.type;
  if (Number(type) !== 1) throw joiningFeeError();
}
