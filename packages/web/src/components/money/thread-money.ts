import { parseMoney, type Forum, type OrderInfo, type Page, type UserSummary } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { isSuccess, type ApiResult } from '../../api/dispatcher';
import { post } from '../../api/mutate';
import { useAppContext } from '../../app-context';

/** What the server adds to a thread for paid reading and rewards (docs/money.md). */
export interface ThreadMoney {
  /** "12.50"; "0.00" for a free thread. */
  price?: string;
  /** How many characters of the body everyone sees. */
  freeWords?: number;
  /** The viewer bought it. */
  paid?: boolean;
  paidCount?: number;
  rewardedCount?: number;
  rewardedAmount?: string;
}

/** thread.paidusers' types: 3 buyers, 2 rewarders (the order types). */
export const PAYERS_BUYERS = 3;
export const PAYERS_REWARDERS = 2;

export function priceCents(thread: ThreadMoney): number {
  return thread.price === undefined ? 0 : (parseMoney(thread.price) ?? 0);
}

/** A paid thread the viewer has not bought, and may not read whole otherwise (not the author). */
export function isLocked(thread: ThreadMoney & { user: { userId: number } }, viewerId: number | null): boolean {
  return priceCents(thread) > 0 && thread.paid !== true && thread.user.userId !== viewerId;
}

/** Whether the viewer may put a price on a thread in this category. */
export function canInsertPay(forum: Forum | null, categoryId: number): boolean {
  if (!forum?.user) return false;
  if (forum.user.isAdmin) return true;
  return forum.permissions.some((p) => p === 'thread.insertPay' || p === `category${categoryId}.thread.insertPay`);
}

/** A buyer or rewarder as thread.paidusers lists them. */
export type ThreadPayer = UserSummary & { amount?: string; isAnonymous?: boolean };

/** Buyers (3) or rewarders (2) of a thread; under the thread's key, so refreshing the thread refreshes them. */
export function useThreadPayers(threadId: number, type: number, enabled: boolean) {
  const { api } = useAppContext();
  const query = useQuery({
    queryKey: ['thread', threadId, 'paidusers', type] as const,
    queryFn: (): Promise<ApiResult<Page<ThreadPayer> | ThreadPayer[]>> =>
      api.get<Page<ThreadPayer> | ThreadPayer[]>(
        '/api/v3/thread.paidusers',
        { threadId, type, page: 1, perPage: 20 },
        { handleError: false },
      ),
    enabled,
  });
  const result = query.data;
  if (!result || !isSuccess(result)) return { users: [] as ThreadPayer[], total: 0 };
  const data = result.Data;
  return Array.isArray(data) ? { users: data, total: data.length } : { users: data.pageData, total: data.totalCount };
}

/** Creates an order (the server's message in a toast when it refuses). */
export function createOrder(body: Record<string, unknown>): Promise<OrderInfo | null> {
  return post<OrderInfo>('/api/v3/order.create', body);
}
