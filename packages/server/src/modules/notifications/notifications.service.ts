import { CashStatus, formatMoney, OrderType, UserStatus, type DomainEventPayload } from '@luntan/shared';
import { viewerOfUser } from '../../access/viewer.js';
import type { AppContext } from '../../context.js';
import { plainText, summarize } from '../content/index.js';
import { readSiteInfo } from '../settings/index.js';
import { canReadThread } from '../threads/index.js';
import {
  findPerson,
  findPostSubject,
  findThreadSubject,
  findUserRow,
  groupNames,
  mentionedUserIds,
  type PostSubject,
} from './notifications.repository.js';
import { cut, QUOTE_CHARS, safely, send, type Notice } from './notice-sender.js';
import { msg, type Message } from '../../i18n/index.js';

/*
 * Notifications made from domain events: each verb is called by the notifications subscriber
 * (notifications.subscriber.ts) once the event's transaction committed. A verb that throws makes the event bus log
 * it and try the event again later; the user's action stands.
 * Rules for every notice: nobody is told about their own action; nobody hears from a user they blocked; a template
 * switched off sends nothing. The text is the template's, filled when the event happens.
 */

const isVisible = (p: PostSubject) =>
  p.deletedAt === null &&
  p.isApproved === 1 &&
  p.threadDeletedAt === null &&
  p.threadIsDraft === 0 &&
  p.threadIsApproved === 1;

/** What a notice quotes of a post: the thread's title for its first post, else the start of the post's text. */
const quoteOf = (p: PostSubject) =>
  p.isFirst === 1 ? p.threadTitle : summarize(plainText(p.contentHtml), QUOTE_CHARS);

const subjectIds = (p: PostSubject) => ({
  threadId: p.threadId,
  postId: p.id,
  replyPostId: p.isComment === 1 ? p.replyPostId : null,
});

// --- Threads and posts ----------------------------------------------------------------------------------------------

/**
 * A post became visible (created, approved from review, or edited): a reply tells the thread's author, a comment
 * the reply's author and the author of the comment it answers; every user it @mentions is told too (except those
 * it already answers). Each is told once per post, so calling it again after an edit tells only new mentions.
 */
export async function notifyPostPublished(ctx: AppContext, postId: number): Promise<void> {
  await safely(ctx, 'post published', () => tellPostPublished(ctx, postId));
}

/** A thread became visible (published, approved from review, or edited): those its first post mentions are told. */
export async function notifyThreadPublished(ctx: AppContext, threadId: number): Promise<void> {
  await safely(ctx, 'thread published', async () => {
    const thread = await findThreadSubject(ctx.db, threadId);
    if (thread?.firstPostId) await tellPostPublished(ctx, thread.firstPostId);
  });
}

/**
 * Who a post's notices come from: its author; for an anonymous thread's first post nobody (no fromUser, no block
 * check that would tell who it is), named 匿名用户 / Anonymous in the site's language.
 */
async function actorOf(ctx: AppContext, p: PostSubject): Promise<Omit<Notice, 'key' | 'userId'>> {
  const common = { ...subjectIds(p) };
  if (p.isFirst === 1 && p.threadIsAnonymous === 1) {
    const locale = (await readSiteInfo(ctx.db)).siteLocale;
    const actor = msg('notifications.anonymousActor')[locale === 'en' ? 'en' : 'zh'];
    return { ...common, actorId: null, showActor: false, vars: { content: quoteOf(p), actor } };
  }
  return { ...common, actorId: p.userId, showActor: true, vars: { content: quoteOf(p) } };
}

/**
 * Whether the member may read the post's thread, as thread.detail decides: a reply, mention or like notice quotes
 * the thread and links to it, so one posted where the member may not look (or moved there since) tells them nothing.
 * One read of their groups per member told.
 */
async function readsThread(ctx: AppContext, userId: number, p: PostSubject): Promise<boolean> {
  const user = await findUserRow(ctx.db, userId);
  if (!user) return false;
  return canReadThread(await viewerOfUser(ctx.db, user), {
    id: p.threadId,
    categoryId: p.threadCategoryId,
    userId: p.threadUserId,
    isDraft: p.threadIsDraft,
    isApproved: p.threadIsApproved,
    deletedAt: p.threadDeletedAt,
  });
}

async function tellPostPublished(ctx: AppContext, postId: number): Promise<void> {
  const p = await findPostSubject(ctx.db, postId);
  if (!p || !isVisible(p)) return;
  const base = await actorOf(ctx, p);
  const answered = new Set<number>();
  if (p.isFirst === 0) {
    const authors = p.isComment === 1 ? [p.replyUserId, p.commentUserId] : [p.threadUserId];
    for (const userId of authors) if (userId !== null) answered.add(userId);
  }
  for (const userId of answered) {
    // One's own post tells nobody (send): no need to read who they are.
    if (userId === p.userId || !(await readsThread(ctx, userId, p))) continue;
    await send(ctx, { ...base, key: 'post.replied', userId, subject: { key: `replied:post:${p.id}`, mode: 'once' } });
  }
  for (const userId of await mentionedUserIds(ctx.db, p.id)) {
    if (answered.has(userId) || userId === p.userId || !(await readsThread(ctx, userId, p))) continue;
    await send(ctx, { ...base, key: 'post.reminded', userId, subject: { key: `related:post:${p.id}`, mode: 'once' } });
  }
}

/**
 * A new like of a post: its author is told, if they may still read its thread; likes of one post within the window
 * merge into one notice.
 */
export async function notifyLiked(ctx: AppContext, actorId: number, postId: number): Promise<void> {
  await safely(ctx, 'liked', async () => {
    const p = await findPostSubject(ctx.db, postId);
    if (!p || !isVisible(p) || actorId === p.userId || !(await readsThread(ctx, p.userId, p))) return;
    await send(ctx, {
      key: 'post.liked',
      userId: p.userId,
      actorId,
      showActor: true,
      vars: { content: quoteOf(p) },
      ...subjectIds(p),
      subject: { key: `liked:post:${p.id}`, mode: 'merge' },
    });
  });
}

export type ModerationAction = 'approved' | 'unapproved' | 'deleted' | 'sticky' | 'essence';
const MODERATION_TEMPLATE: Record<ModerationAction, string> = {
  approved: 'post.approved',
  unapproved: 'post.unapproved',
  deleted: 'post.deleted',
  sticky: 'post.sticky',
  essence: 'post.essence',
};

/** Someone else approved, ignored, deleted, made sticky or essence the author's thread: the author is told. */
export async function notifyThreadModerated(
  ctx: AppContext,
  actorId: number,
  threadId: number,
  action: ModerationAction,
  reason = '',
): Promise<void> {
  await safely(ctx, `thread ${action}`, async () => {
    const t = await findThreadSubject(ctx.db, threadId);
    if (!t) return;
    await send(ctx, {
      key: MODERATION_TEMPLATE[action],
      userId: t.userId,
      actorId,
      showActor: false,
      vars: { content: t.title, reason },
      threadId: t.id,
      postId: t.firstPostId,
    });
  });
}

/** Someone else approved, ignored or deleted the author's reply or comment: the author is told. */
export async function notifyPostModerated(
  ctx: AppContext,
  actorId: number,
  postId: number,
  action: 'approved' | 'unapproved' | 'deleted',
  reason = '',
): Promise<void> {
  await safely(ctx, `post ${action}`, async () => {
    const p = await findPostSubject(ctx.db, postId);
    if (!p) return;
    await send(ctx, {
      key: MODERATION_TEMPLATE[action],
      userId: p.userId,
      actorId,
      showActor: false,
      vars: { content: quoteOf(p), reason },
      ...subjectIds(p),
    });
  });
}

// --- People and accounts --------------------------------------------------------------------------------------------

/** A new follower: the followed user is told; follows within the window merge into one notice. */
export async function notifyFollowed(ctx: AppContext, actorId: number, toUserId: number): Promise<void> {
  await safely(ctx, 'followed', async () => {
    await send(ctx, {
      key: 'user.followed',
      userId: toUserId,
      actorId,
      showActor: true,
      subject: { key: 'followed', mode: 'merge' },
    });
  });
}

/** Registration reviews: an approved user is told so, a rejected one why; an ignored one hears nothing. */
export async function notifyRegistrationsReviewed(
  ctx: AppContext,
  items: readonly { id: number; status: number; rejectReason?: string | undefined }[],
): Promise<void> {
  for (const item of items) {
    await safely(ctx, 'registration reviewed', async () => {
      if (item.status === UserStatus.NORMAL) {
        await send(ctx, { key: 'registered.approved', userId: item.id, actorId: null, showActor: false });
      }
      if (item.status === UserStatus.REJECTED) {
        const vars = { reason: item.rejectReason ?? '' };
        await send(ctx, { key: 'registered.unapproved', userId: item.id, actorId: null, showActor: false, vars });
      }
    });
  }
}

export interface AccountState {
  status: number;
  groupIds: readonly number[];
}

/** An administrator banned or unbanned a user, or changed their groups: the user is told. */
export async function notifyAccountChanged(
  ctx: AppContext,
  actorId: number,
  userId: number,
  change: { before: AccountState; after: AccountState; reason: string },
): Promise<void> {
  await safely(ctx, 'account changed', async () => {
    const { before, after } = change;
    const base = { userId, actorId, showActor: false };
    if (after.status === UserStatus.BANNED && before.status !== UserStatus.BANNED) {
      await send(ctx, { ...base, key: 'user.disable', vars: { reason: change.reason } });
    }
    if (before.status === UserStatus.BANNED && after.status === UserStatus.NORMAL) {
      await send(ctx, { ...base, key: 'user.normal' });
    }
    const same = (a: readonly number[], b: readonly number[]) =>
      a.length === b.length && a.every((id) => b.includes(id));
    if (!same([...new Set(before.groupIds)], [...new Set(after.groupIds)])) {
      const locale = (await readSiteInfo(ctx.db)).siteLocale;
      const names = async (ids: readonly number[]) =>
        (await groupNames(ctx.db, ids)).join(locale === 'en' ? ', ' : '、');
      const vars = { oldgroupname: await names(before.groupIds), newgroupname: await names(after.groupIds) };
      await send(ctx, { ...base, key: 'user.group', vars });
    }
  });
}

// --- Reports -------------------------------------------------------------------------------------------------------

/** What a decided report was about, as the notice names it. */
export interface DecidedReport {
  type: number;
  targetId: number;
  status: number;
  remark: string;
}

/** An administrator handled (status 1) or ignored (2) a report: the reporter is told the outcome. */
export async function notifyReportDecided(ctx: AppContext, report: DecidedReport & { userId: number }): Promise<void> {
  await safely(ctx, 'report decided', async () => {
    const locale = (await readSiteInfo(ctx.db)).siteLocale === 'en' ? 'en' : 'zh';
    let content = '';
    if (report.type === 0) content = (await findPerson(ctx.db, report.targetId))?.nickname ?? '';
    else if (report.type === 1) content = (await findThreadSubject(ctx.db, report.targetId))?.title ?? '';
    else {
      const p = await findPostSubject(ctx.db, report.targetId);
      content = p ? summarize(plainText(p.contentHtml), QUOTE_CHARS) : '';
    }
    const handled = report.status === 1;
    const result =
      locale === 'en'
        ? handled
          ? 'was handled'
          : 'was reviewed and left as it is'
        : handled
          ? '已处理'
          : '经核实未予处理';
    const remark =
      report.remark === '' ? '' : locale === 'en' ? `Note: ${report.remark}` : `处理说明：${report.remark}`;
    await send(ctx, {
      key: 'report.handled',
      userId: report.userId,
      // The site speaks (a reporter who blocked the administrator still hears the outcome).
      actorId: null,
      showActor: false,
      vars: { content, result, remark },
    });
  });
}

// --- Money -----------------------------------------------------------------------------------------------------------

/**
 * An order was paid: the author of a bought or rewarded thread is told what they received (a financial notice).
 * An anonymous reward names nobody. Told once per order.
 */
export async function notifyOrderPaid(ctx: AppContext, orderId: number): Promise<void> {
  await safely(ctx, 'order paid', async () => {
    const order = await ctx.db
      .selectFrom('orders')
      .leftJoin('threads', 'threads.id', 'orders.threadId')
      .select([
        'orders.type',
        'orders.userId',
        'orders.payeeId',
        'orders.threadId',
        'orders.isAnonymous',
        'orders.authorAmountCents',
        'threads.title',
      ])
      .where('orders.id', '=', orderId)
      .executeTakeFirst();
    if (!order || order.payeeId === null || order.threadId === null) return;
    const key =
      order.type === OrderType.REWARD ? 'post.rewarded' : order.type === OrderType.THREAD ? 'post.paid' : null;
    if (!key) return;
    const anonymous = order.isAnonymous === 1;
    const locale = (await readSiteInfo(ctx.db)).siteLocale;
    await send(ctx, {
      key,
      userId: order.payeeId,
      actorId: anonymous ? null : order.userId,
      showActor: !anonymous,
      vars: {
        content: cut(order.title ?? '', QUOTE_CHARS),
        amount: formatMoney(Number(order.authorAmountCents)),
        ...(anonymous ? { actor: locale === 'en' ? 'Someone' : '匿名用户' } : {}),
      },
      threadId: order.threadId,
      subject: { key: `paid:order:${orderId}`, mode: 'once' },
    });
  });
}

/**
 * A member got a packet of a thread's red packet: they are told the amount (a financial notice), from the thread's
 * author, or from nobody named when the thread is anonymous. Told once per member and red packet.
 */
export async function notifyRedPacketReceived(
  ctx: AppContext,
  got: DomainEventPayload<'red_packet.received'>,
): Promise<void> {
  await safely(ctx, 'red packet received', async () => {
    const thread = await findThreadSubject(ctx.db, got.threadId);
    if (!thread) return;
    const anonymous = thread.isAnonymous === 1;
    await send(ctx, {
      key: 'red_packet.gotten',
      userId: got.userId,
      actorId: anonymous ? null : got.authorId,
      showActor: !anonymous,
      vars: { content: cut(thread.title, QUOTE_CHARS), amount: formatMoney(got.amountCents) },
      threadId: thread.id,
      postId: got.postId,
      subject: { key: `gotten:red_packet:${got.redPacketId}`, mode: 'once' },
    });
  });
}

/**
 * A bounty's author awarded a reply: its author is told the amount (a financial notice), from the bounty's author, or
 * from nobody named when the thread is anonymous. Told once per award (the event: one reply may be awarded twice).
 */
export async function notifyBountyAwarded(ctx: AppContext, award: DomainEventPayload<'bounty.awarded'>): Promise<void> {
  await safely(ctx, 'bounty awarded', async () => {
    const thread = await findThreadSubject(ctx.db, award.threadId);
    if (!thread) return;
    const anonymous = thread.isAnonymous === 1;
    await send(ctx, {
      key: 'question.rewarded',
      userId: award.answererId,
      actorId: anonymous ? null : award.userId,
      showActor: !anonymous,
      vars: { content: cut(thread.title, QUOTE_CHARS), amount: formatMoney(award.amountCents) },
      threadId: thread.id,
      postId: award.postId,
    });
  });
}

/**
 * A bounty's deadline passed with money left: its author is told what went back to their wallet (the site speaks).
 * Nothing left, nothing told. Told once per bounty.
 */
export async function notifyBountyExpired(
  ctx: AppContext,
  expired: DomainEventPayload<'bounty.expired'>,
): Promise<void> {
  if (expired.refundCents <= 0) return;
  await safely(ctx, 'bounty expired', async () => {
    const thread = await findThreadSubject(ctx.db, expired.threadId);
    if (!thread) return;
    await send(ctx, {
      key: 'question.rewarded.expired',
      userId: expired.userId,
      actorId: null,
      showActor: false,
      vars: { content: cut(thread.title, QUOTE_CHARS), amount: formatMoney(expired.refundCents) },
      threadId: thread.id,
      subject: { key: `expired:bounty:${thread.id}`, mode: 'once' },
    });
  });
}

/** What each step of a withdrawal says, in the site's language (the template's {result}). */
const WITHDRAWAL_STEPS: Partial<Record<number, { key: string } & Message>> = {
  [CashStatus.APPROVED]: { key: 'withdraw.noticed', ...msg('notifications.withdrawalApproved') },
  [CashStatus.PAID]: { key: 'withdraw.noticed', ...msg('notifications.withdrawalPaid') },
  [CashStatus.REJECTED]: { key: 'withdraw.withdraw', ...msg('notifications.withdrawalRejected') },
  [CashStatus.PAYOUT_FAILED]: { key: 'withdraw.withdraw', ...msg('notifications.withdrawalPayoutFailed') },
};

/**
 * A withdrawal moved a step: approved (waiting to be paid by hand), paid out, rejected or a failed payout. One notice
 * per step, saying which (the template's {result}); rejected and failed ones say why (the reviewer's remark). The
 * site speaks, not the reviewer. A step told once is not told again.
 */
export async function notifyWithdrawal(
  ctx: AppContext,
  cash: { withdrawalId: number; userId: number; status: number; applyCents: number; remark: string },
): Promise<void> {
  await safely(ctx, 'withdrawal', async () => {
    const cashId = cash.withdrawalId;
    const step = WITHDRAWAL_STEPS[cash.status];
    if (!step) return;
    const locale = (await readSiteInfo(ctx.db)).siteLocale === 'en' ? 'en' : 'zh';
    await send(ctx, {
      key: step.key,
      userId: cash.userId,
      actorId: null,
      showActor: false,
      vars: { amount: formatMoney(Number(cash.applyCents)), result: step[locale], reason: cash.remark },
      subject: { key: `cash:${cashId}:${cash.status}`, mode: 'once' },
    });
  });
}

/** A provider's payment could not buy what it was for and went back to the payer's wallet: the payer hears why. */
export async function notifyPaymentReturned(
  ctx: AppContext,
  orderId: number,
  reason: DomainEventPayload<'payment.returned'>['reason'],
): Promise<void> {
  await safely(ctx, 'payment returned', async () => {
    const order = await ctx.db
      .selectFrom('orders')
      .leftJoin('threads', 'threads.id', 'orders.threadId')
      .leftJoin('groups', 'groups.id', 'orders.groupId')
      .select([
        'orders.userId',
        'orders.amountCents',
        'orders.threadId',
        'orders.orderSn',
        'threads.title',
        'groups.name',
      ])
      .where('orders.id', '=', orderId)
      .executeTakeFirst();
    if (!order) return;
    const en = (await readSiteInfo(ctx.db)).siteLocale === 'en';
    const why = {
      bought: en ? 'you had bought it already' : '你已购买过它',
      paid: en ? 'this order had been paid already' : '这笔订单已经支付过',
      gone: en ? 'the group it was for has been deleted' : '要购买的用户组已被删除',
    }[reason];
    await send(ctx, {
      key: 'payment.returned',
      userId: order.userId,
      actorId: null,
      showActor: false,
      vars: {
        content: cut(order.title ?? order.name ?? order.orderSn, QUOTE_CHARS),
        amount: formatMoney(Number(order.amountCents)),
        reason: why,
      },
      ...(order.threadId !== null ? { threadId: order.threadId } : {}),
      subject: { key: `returned:order:${orderId}:${reason}`, mode: 'once' },
    });
  });
}
