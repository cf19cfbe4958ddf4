import {
  Code,
  formatMoney,
  OrderType,
  type Locale,
  type Page,
  type PaidUser,
  type PaidUsersQuery,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../core/errors.js';
import type { DB, Thread } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { freeContent } from '../content/index.js';
import { assertCanReadThread, readsWhole, type ThreadState } from './thread.policy.js';
import { boughtThreadIds, countThreadPayments, listThreadPayments } from './thread-purchases.repository.js';
import { findThread } from './threads.repository.js';
import { msg } from '../../i18n/index.js';

/** A price above 0 needs thread.insertPay in the thread's category (-4002, said on the price field). */
export function assertMaySetPrice(viewer: ViewerContext, categoryId: number, priceCents: number): void {
  if (priceCents > 0 && !can(viewer, 'thread.insertPay', categoryId)) {
    throw fieldError(Code.UNAUTHORIZED, 'price', msg('threads.youNotPostPaid'));
  }
}

/** Whether the viewer reads the thread's whole body (reads whether they bought it only for a paid thread). */
export async function readsWholeThread(
  db: Kysely<DB>,
  viewer: ViewerContext,
  t: ThreadState & Pick<Thread, 'priceCents'>,
): Promise<boolean> {
  if (t.priceCents <= 0) return true;
  const bought = viewer.user ? (await boughtThreadIds(db, viewer.user.id, [t.id])).has(t.id) : false;
  return readsWhole(viewer, t, bought);
}

/** A first post's content as the viewer may read it: whole, or the free part of a paid thread. */
export async function firstPostContentFor(
  db: Kysely<DB>,
  viewer: ViewerContext,
  t: ThreadState & Pick<Thread, 'priceCents' | 'freeWordsFraction'>,
  content: { text: string; html: string },
): Promise<{ text: string; html: string }> {
  return (await readsWholeThread(db, viewer, t)) ? content : freeContent(content.html, t.freeWordsFraction);
}

const ANONYMOUS = msg('threads.anonymous');

/** thread.paidusers: the buyers (type 3) or rewarders (type 2) of a thread, newest first; anonymous rewards unnamed. */
export async function paidUsers(
  ctx: AppContext,
  viewer: ViewerContext,
  q: PaidUsersQuery,
  locale: Locale,
): Promise<Page<PaidUser>> {
  const thread = await findThread(ctx.db, q.threadId);
  assertCanReadThread(viewer, thread);
  const type = q.type === OrderType.REWARD ? OrderType.REWARD : OrderType.THREAD;
  const [total, rows] = await Promise.all([
    countThreadPayments(ctx.db, thread.id, type),
    listThreadPayments(ctx.db, thread.id, type, (q.page - 1) * q.perPage, q.perPage),
  ]);
  const pageData = rows.map((r): PaidUser => {
    const anonymous = type === OrderType.REWARD && r.isAnonymous === 1;
    return {
      userId: anonymous ? null : r.userId,
      nickname: anonymous ? ANONYMOUS[locale] : r.nickname,
      avatar: anonymous ? '' : r.avatar,
      isAnonymous: anonymous,
      amount: formatMoney(Number(r.amountCents)),
      paidAt: r.paidAt ?? r.createdAt,
    };
  });
  return {
    pageData,
    currentPage: q.page,
    perPage: q.perPage,
    totalCount: total,
    totalPage: Math.ceil(total / q.perPage),
  };
}
