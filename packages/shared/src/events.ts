import { z } from 'zod';

/*
 * Domain events: what happened in the forum, announced by the module where it happened, in the transaction of the
 * change (an outbox, packages/server/src/core/events), and heard after commit by whoever subscribes: notifications,
 * live delivery to members' pages, search indexing, plugins and webhooks. The one list of names and payloads for the server, the live
 * stream and the plugin SDK.
 *
 * A payload carries ids, and what a subscriber could not read again later: the state at the moment (a withdrawal's
 * status moves on, an account's groups before the change, the reason an administrator gave). Payloads cross
 * processes and plugins as JSON: numbers, strings, booleans, arrays and plain objects only.
 */

const id = z.number().int().positive();
/** Who acted (null: the site itself, a payment provider, a timer). */
const actor = id.nullable();

export const DOMAIN_EVENTS = {
  /** An administrator reviewed registrations: approved (status normal), rejected (with the reason) or ignored. */
  'user.reviewed': z.object({
    userId: id,
    actorId: actor,
    status: z.number().int(),
    rejectReason: z.string(),
  }),
  /** An administrator changed a member's status or groups (the state before and after, and the reason given). */
  'user.changed': z.object({
    userId: id,
    actorId: actor,
    before: z.object({ status: z.number().int(), groupIds: z.array(id) }),
    after: z.object({ status: z.number().int(), groupIds: z.array(id) }),
    reason: z.string(),
  }),
  /** A member followed another (a new follow; following again does not announce it). */
  'user.followed': z.object({ userId: id, followedUserId: id }),
  /** A member's username or nickname changed (the names before and after). */
  'user.renamed': z.object({
    userId: id,
    before: z.object({ username: z.string(), nickname: z.string() }),
    after: z.object({ username: z.string(), nickname: z.string() }),
  }),

  /** A thread was created, published (left drafts) or edited so that its first post was rendered again. */
  'thread.created': z.object({ threadId: id, userId: id, categoryId: id }),
  'thread.updated': z.object({ threadId: id, userId: id }),
  /** Someone other than (or as well as) the author changed the thread's standing; `reason` is what they gave. */
  'thread.moderated': z.object({
    threadId: id,
    actorId: actor,
    action: z.enum(['approved', 'unapproved', 'deleted', 'sticky', 'essence']),
    reason: z.string(),
  }),
  /** A moderator restored a deleted thread. */
  'thread.restored': z.object({ threadId: id, actorId: actor }),

  /** A reply or comment was created. */
  'post.created': z.object({ postId: id, threadId: id, userId: id }),
  /** A post's content was edited (mentions it adds are told). */
  'post.updated': z.object({ postId: id, threadId: id, userId: id }),
  /** A member liked a post (liking a thread likes its first post: `isFirst` tells which). */
  'post.liked': z.object({ postId: id, threadId: id, userId: id, isFirst: z.boolean() }),
  'post.moderated': z.object({
    postId: id,
    threadId: id,
    actorId: actor,
    action: z.enum(['approved', 'unapproved', 'deleted']),
    reason: z.string(),
  }),
  /** A moderator restored a hidden reply or comment. */
  'post.restored': z.object({ postId: id, threadId: id, actorId: actor }),
  /** The site rendered a post's stored Markdown again after a rule changed (a stop word, a member's name). */
  'post.rerendered': z.object({ postId: id, threadId: id }),
  /**
   * The next batch of posts to render again (the rerender module's reminder to itself): those mentioning `userId`
   * (`oldUsername` becomes `newUsername` in their text when they differ), else those containing one of `words`
   * (stop words to replace), from the post after `afterPostId` on.
   */
  'post.rerender_due': z.object({
    userId: id.nullable(),
    oldUsername: z.string(),
    newUsername: z.string(),
    words: z.array(z.string()),
    afterPostId: z.number().int().nonnegative(),
  }),

  /** A private message was sent; a held one (waiting for review) reaches only its sender until approved. */
  'dialog.message.sent': z.object({
    dialogId: id,
    messageId: id,
    senderId: id,
    recipientId: id,
    held: z.boolean(),
  }),
  /** A held private message was approved and now reaches its recipient. */
  'dialog.message.approved': z.object({ dialogId: id, messageId: id, senderId: id, recipientId: id }),
  /** A notice reached a member's message centre (made, or a merged one told again): modules/push sends it on. */
  'notification.created': z.object({ notificationId: id, userId: id }),
  /** A member read a dialog (its other member's pages show it as read). */
  'dialog.read': z.object({ dialogId: id, userId: id, otherUserId: id }),

  /** An order was paid (settled): what was bought or rewarded is the payer's, the payee's share is credited. */
  'order.paid': z.object({
    orderId: id,
    userId: id,
    payeeId: id.nullable(),
    type: z.number().int(),
    threadId: id.nullable(),
    amountCents: z.number().int(),
  }),
  /**
   * A timer: an order's time to be paid is up (emitted with the order, due at its expiry). The orders module then
   * expires it if it is still unpaid, announcing order.expired; other subscribers want order.expired instead.
   */
  'order.expiry_due': z.object({ orderId: id, userId: id }),
  /**
   * A timer: a bounty question's deadline (emitted with the thread, due at its expiredAt). The bounty module then
   * returns what is left to the author, once; outsiders want bounty.expired.
   */
  'bounty.expiry_due': z.object({ threadId: id, userId: id }),
  /** A bounty's author awarded part of it to a reply (answererId's wallet received amountCents). */
  'bounty.awarded': z.object({ threadId: id, postId: id, userId: id, answererId: id, amountCents: z.number().int() }),
  /** A bounty's deadline passed: what was left (refundCents) went back to its author. */
  'bounty.expired': z.object({ threadId: id, userId: id, refundCents: z.number().int() }),
  /** An unpaid order's time ran out: it can no longer be paid. */
  'order.expired': z.object({ orderId: id, userId: id }),
  /**
   * A timer: a red packet's time is up (emitted with it, due 24 hours later). The red packets module then returns
   * what nobody took to the author; others want nothing from it.
   */
  'red_packet.expiry_due': z.object({ redPacketId: id, threadId: id, userId: id }),
  /**
   * A member got a packet of a thread's red packet: amountCents moved from the author's (authorId) frozen money to the
   * member's (userId) wallet, for the reply postId.
   */
  'red_packet.received': z.object({
    redPacketId: id,
    threadId: id,
    postId: id,
    userId: id,
    authorId: id,
    amountCents: z.number().int(),
  }),
  /**
   * A provider's payment could not buy what it was for and went back to the payer's wallet: the thread was bought
   * already, the order was paid already, or the paid group it was for is gone.
   */
  'payment.returned': z.object({ orderId: id, userId: id, reason: z.enum(['bought', 'paid', 'gone']) }),

  /** A withdrawal moved a step (approved, paid out, rejected, payout failed): the step and the remark of the moment. */
  'withdrawal.reviewed': z.object({
    withdrawalId: id,
    userId: id,
    status: z.number().int(),
    applyCents: z.number().int(),
    remark: z.string(),
  }),

  /** An administrator handled (status 1) or ignored (2) a report. */
  'report.handled': z.object({
    reportId: id,
    userId: id,
    actorId: actor,
    type: z.number().int(),
    targetId: id,
    status: z.number().int(),
    remark: z.string(),
  }),

  /** An administrator added, changed or removed stop words; `replaced` are the {REPLACE} words of posts added or changed. */
  'stop_words.changed': z.object({ actorId: actor, replaced: z.array(z.string()) }),
} as const;

export type DomainEventName = keyof typeof DOMAIN_EVENTS;
export type DomainEventPayload<N extends DomainEventName> = z.infer<(typeof DOMAIN_EVENTS)[N]>;
/** Every event as a tagged union: `{ name: 'post.created', payload: {...} } | ...`. */
export type DomainEvent = { [N in DomainEventName]: { name: N; payload: DomainEventPayload<N> } }[DomainEventName];
export const DOMAIN_EVENT_NAMES = Object.keys(DOMAIN_EVENTS) as DomainEventName[];

/**
 * The events outside listeners (webhooks, plugins) hear: every event but the timers the server sets itself
 * (order.expiry_due is the orders module's reminder to itself; outsiders want order.expired).
 */
const INTERNAL_EVENT_NAMES: ReadonlySet<DomainEventName> = new Set([
  'order.expiry_due',
  'red_packet.expiry_due',
  'bounty.expiry_due',
  'post.rerender_due',
  'post.rerendered',
]);
export const PUBLIC_EVENT_NAMES = DOMAIN_EVENT_NAMES.filter((name) => !INTERNAL_EVENT_NAMES.has(name));

export function isDomainEventName(name: string): name is DomainEventName {
  return Object.hasOwn(DOMAIN_EVENTS, name);
}

/**
 * What a subscriber hears: the stored event's id (stable across retries: a key for idempotence), name and payload.
 * A union over the names, so a `switch (event.name)` narrows the payload.
 */
export type DeliveredEvent<N extends DomainEventName = DomainEventName> = {
  [K in N]: {
    id: number;
    name: K;
    payload: DomainEventPayload<K>;
    /** When it was announced (or, for a due event, when it fell due), ISO-8601 UTC. */
    at: string;
    /** 1 on the first delivery, then 2, 3 ... on retries. */
    attempt: number;
  };
}[N];
