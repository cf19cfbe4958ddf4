import type { CashItem, OrderInfo, Page, PayMethods, WalletInfo, WalletLogItem } from '@luntan/shared';
import type { QueryClient } from '@tanstack/react-query';
import type { Platform } from '../platform/platform';
import type { ApiClient } from './client';
import type { ApiResult } from './dispatcher';

/**
 * Query keys and fetchers of the member's money (docs/money.md): the wallet, its ledger, my orders, my withdrawals,
 * the payment methods, one order. Keys start with 'money' and the viewer's id, so a payment refreshes them at once.
 */

export const LEDGER_PER_PAGE = 20;
export const ORDERS_PER_PAGE = 20;
export const CASH_PER_PAGE = 20;

export const moneyKey = ['money'] as const;

export const walletQuery = (api: ApiClient, viewerId: number) => ({
  queryKey: [...moneyKey, viewerId, 'wallet'] as const,
  // A failure is said on the page (not a trip to /404).
  queryFn: (): Promise<ApiResult<WalletInfo>> => api.get<WalletInfo>('/api/v3/wallet/user', {}, { handleError: false }),
});

/** The ledger's filter, as the address carries it. */
export interface LedgerFilter {
  /** One change type, or '' for all. */
  changeType: string;
  /** Dates (YYYY-MM-DD), or ''. */
  from: string;
  to: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The local midnight a YYYY-MM-DD date begins at, or null. */
function dayStart(date: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const at = new Date(`${date}T00:00:00`);
  return Number.isNaN(at.getTime()) ? null : at;
}

export const walletLogQuery = (api: ApiClient, viewerId: number, page: number, filter: LedgerFilter) => ({
  queryKey: [...moneyKey, viewerId, 'log', page, filter.changeType, filter.from, filter.to] as const,
  queryFn: (): Promise<ApiResult<Page<WalletLogItem>>> => {
    const where: Record<string, string> = {};
    if (filter.changeType) where.changeType = filter.changeType;
    // The dates are the reader's days: from the start of the first to the end of the last, as ISO times.
    const from = dayStart(filter.from);
    const to = dayStart(filter.to);
    if (from) where.startTime = from.toISOString();
    if (to) where.endTime = new Date(to.getTime() + DAY_MS - 1).toISOString();
    return api.get<Page<WalletLogItem>>(
      '/api/v3/wallet/log',
      { page, perPage: LEDGER_PER_PAGE, filter: where },
      { handleError: false },
    );
  },
});

export const orderListQuery = (api: ApiClient, viewerId: number, page: number) => ({
  queryKey: [...moneyKey, viewerId, 'orders', page] as const,
  queryFn: (): Promise<ApiResult<Page<OrderInfo>>> =>
    api.get<Page<OrderInfo>>('/api/v3/order.list', { page, perPage: ORDERS_PER_PAGE }, { handleError: false }),
});

export const cashListQuery = (api: ApiClient, viewerId: number, page: number) => ({
  queryKey: [...moneyKey, viewerId, 'cash', page] as const,
  queryFn: (): Promise<ApiResult<Page<CashItem>>> =>
    api.get<Page<CashItem>>('/api/v3/wallet/cash', { page, perPage: CASH_PER_PAGE }, { handleError: false }),
});

/** The payment types the site takes now on this layout (WeChat and Alipay differ between desktop and phone). */
export const payMethodsQuery = (api: ApiClient, platform: Platform) => ({
  queryKey: [...moneyKey, 'methods', platform] as const,
  queryFn: (): Promise<ApiResult<PayMethods>> =>
    api.get<PayMethods>('/api/v3/pay/methods', { platform }, { handleError: false }),
});

/** One of my orders (the sandbox checkout, the pay dialog's polling). Someone else's is said, not sent to /404. */
export const orderDetailQuery = (api: ApiClient, viewerId: number, orderSn: string) => ({
  queryKey: [...moneyKey, viewerId, 'order', orderSn] as const,
  queryFn: (): Promise<ApiResult<OrderInfo>> =>
    api.get<OrderInfo>('/api/v3/order.detail', { orderSn }, { handleError: false }),
});

/** After money moved: the wallet, ledger, orders and withdrawals are read again. */
export function refreshMoney(queryClient: QueryClient, viewerId: number): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [...moneyKey, viewerId] });
}
