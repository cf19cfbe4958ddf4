import { parseMoney, type Forum, type OrderInfo, type Page } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { isSuccess, type ApiResult } from '../../api/dispatcher';
import { post } from '../../api/mutate';
import { useAppContext } from '../../app-context';
import { endpoints } from '../../api/endpoints';

/** What the server adds to a thread for paid reading and rewards (docs/money.md). */
export interface ThreadMoney {
  /** "12.50"; "0.00" for a free thread. */
  price?: string;
  /** The fraction (0 to 1) of the body everyone sees, as Discuz! Q means `freeWords`. */
  freeWords?: number;
  /** The viewer bought it. */
  paid?: boolean;
  /** The viewer reads the whole body (false: the content holds only the free part). */
  canViewFull?: boolean;
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

/** A paid thread the viewer reads only the free part of (the server's word: its author, editors, buyers read all). */
export function isLocked(thread: ThreadMoney): boolean {
  return priceCents(thread) > 0 && thread.canViewFull === false;
}

/** The editor's free-part box as a whole percent (0-100) of a thread's `freeWords` fraction. */
export function freePercentOf(fraction: number | undefined): string {
  return String(Math.round(Math.min(1, Math.max(0, fraction ?? 0)) * 100));
}

/** What the free-part box keeps while typing: whole numbers from 0 to 100 (a larger one becomes 100). */
export function keepPercent(raw: string): string {
  const digits = raw.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return digits !== '' && Number(digits) > 100 ? '100' : digits;
}

/**
 * The `freeWords` fraction to send for the box's percent. When the box still shows what the thread had, the
 * thread's own fraction goes back unchanged: a rounded percent must not move the free part of a thread whose author
 * only edited its title.
 */
export function freeFractionToSend(percent: string | undefined, previous?: number): number {
  const shown = Math.min(100, Number(keepPercent(percent ?? '') || 0));
  if (previous !== undefined && freePercentOf(previous) === String(shown)) return previous;
  return shown / 100;
}

/** Whether the viewer may put a price on a thread in this category. */
export function canInsertPay(forum: Forum | null, categoryId: number): boolean {
  if (!forum?.user) return false;
  if (forum.user.isAdmin) return true;
  return forum.permissions.some((p) => p === 'thread.insertPay' || p === `category${categoryId}.thread.insertPay`);
}

/** A payment as thread.paidusers lists it: an anonymous reward has no userId and a localised name. */
export interface ThreadPayer {
  userId: number | null;
  nickname: string;
  avatar: string;
  isAnonymous: boolean;
  amount: string;
}

/** Buyers (3) or rewarders (2) of a thread; under the thread's key, so refreshing the thread refreshes them. */
export function useThreadPayers(threadId: number, type: number, enabled: boolean) {
  const { api } = useAppContext();
  const query = useQuery({
    queryKey: ['thread', threadId, 'paidusers', type] as const,
    queryFn: (): Promise<ApiResult<Page<ThreadPayer>>> =>
      api.get<Page<ThreadPayer>>(
        endpoints.threads.paidUsers,
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
  return post<OrderInfo>(endpoints.orders.create, body);
}
