import {
  DOMAIN_EVENTS,
  ORDER_EXPIRY_MS,
  OrderStatus,
  OrderType,
  PayType,
  RED_PACKET_TTL_MS,
  RedPacketRule,
  RedPacketStatus,
  WalletChangeType,
  type DomainEventName,
  type DomainEventPayload,
} from '@luntan/shared';
import { sql, type Kysely } from 'kysely';
import { insertDeliveries, insertEvent } from '../../../core/events/events.repository.js';
import type { DB } from '../../../db/schema.js';
import { msg } from '../../../i18n/index.js';
import { BOUNTY_SUBSCRIBER } from '../../../modules/bounty/index.js';
import { RED_PACKETS_SUBSCRIBER, splitAmounts } from '../../../modules/red-packets/index.js';
import { readSiteSettings } from '../../../modules/settings/index.js';
import type { DzqRow } from '../source.js';
import {
  inTransaction,
  insertChunks,
  type BatchContext,
  type FinalStep,
  type ImportRun,
  type Step,
  type TableStep,
} from '../steps.js';
import { cents, int, ref, str, time, timeOr } from '../values.js';

/*
 * The money of a Discuz! Q site (docs/money.md, docs/discuzq.md): wallets, orders (and the purchases that let a buyer
 * read a paid thread), withdrawals, red packets and bounties still running, then the ledger, and at the end one
 * opening-balance entry per wallet whose old ledger does not add up to its balance. Amounts: yuan text → cents, digit
 * by digit (values.ts cents()). Ids are kept.
 *
 * Order of the steps (steps/index.ts): after the accounts (users, groups) and the content (threads, posts); orders
 * before the ledger (a ledger row keeps its order when the order came over), the red packets and bounties before the
 * ledger too (their receivers and awards are rebuilt from it), the final step after every money table.
 */

// --- Numbers ---------------------------------------------------------------------------------------------------------

const C = WalletChangeType;

/**
 * The family's ledger change types (app/Models/UserWalletLog.php) → ours. Where ours has the meaning, ours; where it
 * has none and the family's number means nothing here, the family's number is kept (the column takes any number, the
 * API lists and filters it, the pages name it "other (N)"): 8/9 question freeze and return, 35/36 question and onlooker
 * income, 81/82 question and onlooker spending, 100/110 the old red packets' spending, 165 a bounty's frozen money
 * returned, 170/171 merged orders. The family's 30 and 34 (joining fee income) would read as ours (added by an
 * administrator, payment returned): they become 39. Every "abnormal order refund" (104, 114, 124, 130, 154, 163, 172)
 * is ours 34, money that could not buy what it was for, back in the wallet.
 */
const CHANGE_TYPES: Record<number, number> = {
  10: C.CASH_FREEZE,
  11: C.CASH_PAID,
  12: C.CASH_THAW,
  30: C.REGISTER_SHARE_INCOME,
  31: C.REWARD_INCOME,
  32: C.ADMIN_ADD,
  33: C.REWARD_INCOME,
  34: C.REGISTER_SHARE_INCOME,
  41: C.REWARD_EXPENSE,
  50: C.ADMIN_SUBTRACT,
  51: C.GROUP_EXPENSE,
  // A thread's files bought apart are a thread's purchase here too (order-settle.service.ts).
  52: C.THREAD_EXPENSE,
  60: C.THREAD_INCOME,
  61: C.THREAD_EXPENSE,
  62: C.THREAD_INCOME,
  63: C.THREAD_INCOME,
  64: C.THREAD_INCOME,
  70: C.REGISTER_EXPENSE,
  71: C.REGISTER_EXPENSE,
  101: C.RED_PACKET_FREEZE,
  102: C.RED_PACKET_INCOME,
  103: C.RED_PACKET_REFUND,
  104: C.PAYMENT_RETURNED,
  111: C.RED_PACKET_FREEZE,
  112: C.RED_PACKET_INCOME,
  113: C.RED_PACKET_REFUND,
  114: C.PAYMENT_RETURNED,
  120: C.BOUNTY_INCOME,
  121: C.BOUNTY_REFUND,
  // What was left at the deadline shared among the answerers: an award received.
  122: C.BOUNTY_INCOME,
  123: C.BOUNTY_INCOME,
  124: C.PAYMENT_RETURNED,
  130: C.PAYMENT_RETURNED,
  150: C.RED_PACKET_FREEZE,
  151: C.RED_PACKET_INCOME,
  152: C.RED_PACKET_REFUND,
  153: C.RED_PACKET_EXPENSE,
  154: C.PAYMENT_RETURNED,
  160: C.BOUNTY_FREEZE,
  161: C.BOUNTY_INCOME,
  162: C.BOUNTY_REFUND,
  163: C.PAYMENT_RETURNED,
  164: C.BOUNTY_EXPENSE,
  172: C.PAYMENT_RETURNED,
  180: C.RECHARGE,
};

export const changeTypeOf = (family: number): number => CHANGE_TYPES[family] ?? family;

/** The family's ledger types of a packet received and of a bounty award received (rebuilt as rows of their own). */
const PACKET_RECEIVED = new Set([102, 112, 151]);
const AWARD_RECEIVED = new Set([120, 161]);

/**
 * Order types: ours where ours has them (8, a renewal of the joining, is a joining fee; 20/21, the old red packets,
 * are a red packet's order); 5 question, 6 onlooker, 10 bounty, 11 merged are kept (numbers ours does not use).
 */
const ORDER_TYPES: Record<number, number> = {
  8: OrderType.REGISTER,
  20: OrderType.RED_PACKET,
  21: OrderType.RED_PACKET,
};
export const orderTypeOf = (family: number): number => ORDER_TYPES[family] ?? family;

/** The family's orders that pay a red packet or a bounty (alone or merged), of the thread. */
const RED_PACKET_ORDERS = [OrderType.RED_PACKET, 11];
const BOUNTY_ORDERS = [10, 11];

/** Payment types: 12 (JSAPI) and 13 (mini-program) are WeChat Pay, which ours numbers 10 and 11; 0 is none. */
const paymentTypeOf = (family: number): number | null =>
  family === 0 ? null : family === 12 || family === 13 ? PayType.WXPAY_H5 : family;

/** Withdrawal status: the family's 4 (waiting to be paid out) is ours 2 (approved, waiting to be paid out). */
const cashStatusOf = (family: number): number => (family === 4 ? 2 : [1, 2, 3, 5, 6].includes(family) ? family : 1);

const addMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** At most this many wallets are named in the report's notes (the total is always there). */
const NAMED_MAX = 50;

// --- Timers ----------------------------------------------------------------------------------------------------------

/**
 * A due event written as the event bus writes it (core/events/event-bus.ts emit): the event and one delivery for the
 * module's subscriber, due at `dueAt` (a time past is delivered as soon as the forum runs). The importer has no bus;
 * the modules export their subscriber names for this.
 */
async function scheduleTimer<N extends DomainEventName>(
  trx: Kysely<DB>,
  subscriber: string,
  name: N,
  payload: DomainEventPayload<N>,
  dueAt: string,
  at: string,
): Promise<void> {
  const checked = DOMAIN_EVENTS[name].parse(payload);
  const eventId = await insertEvent(trx, { name, payload: JSON.stringify(checked), createdAt: at, dueAt });
  await insertDeliveries(trx, eventId, [subscriber], dueAt);
}

// --- Wallets ---------------------------------------------------------------------------------------------------------

const walletsStep: TableStep = {
  kind: 'table',
  table: 'user_wallets',
  key: ['user_id'],
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    const values = [];
    for (const r of rows) {
      const userId = int(r.user_id);
      if (!users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      const created = timeOr(r.created_at, ctx.run.startedAt);
      values.push({
        userId,
        availableCents: Math.max(0, cents(r.available_amount)),
        frozenCents: Math.max(0, cents(r.freeze_amount)),
        status: int(r.wallet_status) === 1 ? 1 : 0,
        createdAt: created,
        updatedAt: timeOr(r.updated_at, created),
      });
    }
    // The users step made the wallets of members with a pay password: their hash stays.
    await insertChunks(values, (chunk) =>
      ctx.db
        .insertInto('wallets')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('userId').doUpdateSet((eb) => ({
            availableCents: eb.ref('excluded.availableCents'),
            frozenCents: eb.ref('excluded.frozenCents'),
            status: eb.ref('excluded.status'),
            createdAt: eb.ref('excluded.createdAt'),
            updatedAt: eb.ref('excluded.updatedAt'),
          })),
        )
        .execute(),
    );
    ctx.wrote(values.length);
  },
};

// --- Orders ----------------------------------------------------------------------------------------------------------

/** Of `sns`, those already taken (a unique column): a row whose number is taken gets one made of its id. */
async function takenNumbers(ctx: BatchContext, table: 'orders' | 'walletCash', sns: string[]): Promise<Set<string>> {
  if (sns.length === 0) return new Set();
  const found =
    table === 'orders'
      ? await ctx.db.selectFrom('orders').select('orderSn as sn').where('orderSn', 'in', sns).execute()
      : await ctx.db.selectFrom('walletCash').select('cashSn as sn').where('cashSn', 'in', sns).execute();
  return new Set(found.map((f) => f.sn));
}

const ordersStep: TableStep = {
  kind: 'table',
  table: 'orders',
  key: ['id'],
  async write(rows, ctx) {
    const [ids, users, threads, groups] = await Promise.all([
      ctx.run.ids('orders'),
      ctx.run.ids('users'),
      ctx.run.ids('threads'),
      ctx.run.ids('groups'),
    ]);
    const taken = await takenNumbers(
      ctx,
      'orders',
      rows.map((r) => str(r.order_sn).trim()).filter((sn) => sn !== ''),
    );
    const values = [];
    const purchases = [];
    for (const r of rows) {
      const id = int(r.id);
      const userId = ref(r.user_id);
      if (userId === null || !users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      const amountCents = cents(r.amount);
      if (amountCents <= 0) {
        ctx.skip('no amount');
        continue;
      }
      let orderSn = str(r.order_sn).trim().slice(0, 32);
      if (orderSn === '' || taken.has(orderSn)) orderSn = `DZQ${id}`;
      taken.add(orderSn);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const updated = timeOr(r.updated_at, created);
      const type = orderTypeOf(int(r.type));
      let status = int(r.status);
      // An unpaid order expires ten minutes after it was made, as ours do; one long past is stored as expired.
      const expiresAt = status === OrderStatus.PENDING ? addMs(created, ORDER_EXPIRY_MS) : created;
      if (status === OrderStatus.PENDING && expiresAt <= ctx.run.startedAt) status = OrderStatus.EXPIRED;
      // The family keeps no payment time: a paid order was last changed when it was paid (a refund changes it again).
      const paid = status === OrderStatus.PAID || status === 5 || status === OrderStatus.REFUNDED;
      const threadId = ref(r.thread_id);
      const groupId = ref(r.group_id);
      const payeeId = ref(r.payee_id);
      values.push({
        id,
        orderSn,
        userId,
        payeeId: payeeId !== null && users.has(payeeId) ? payeeId : null,
        type,
        status,
        amountCents,
        authorAmountCents: cents(r.author_amount),
        masterAmountCents: cents(r.master_amount),
        threadId: threadId !== null && threads.has(threadId) ? threadId : null,
        groupId: groupId !== null && groups.has(groupId) ? groupId : null,
        isAnonymous: int(r.is_anonymous) ? 1 : 0,
        paymentType: paymentTypeOf(int(r.payment_type)),
        tradeNo: null,
        createdAt: created,
        updatedAt: updated,
        expiresAt,
        paidAt: paid ? updated : null,
      });
      // What lets a buyer read a paid thread (and its files): the purchase row the orders module writes when it
      // settles. A paid group needs none: its membership came over with group_user.
      if (
        status === OrderStatus.PAID &&
        (type === OrderType.THREAD || type === OrderType.ATTACHMENT) &&
        threadId !== null &&
        threads.has(threadId)
      ) {
        purchases.push({ userId, type, thingId: threadId, orderId: id, createdAt: updated });
      }
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('orders').values(chunk).execute());
    // One purchase per member and thing: a thread bought twice keeps its first order.
    await insertChunks(purchases, (chunk) =>
      ctx.db
        .insertInto('purchases')
        .values(chunk)
        .onConflict((oc) => oc.columns(['userId', 'type', 'thingId']).doNothing())
        .execute(),
    );
    for (const v of values) ids.add(v.id);
    ctx.wrote(values.length);
  },
};

// --- Withdrawals -----------------------------------------------------------------------------------------------------

const walletCashStep: TableStep = {
  kind: 'table',
  table: 'user_wallet_cash',
  key: ['id'],
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    const taken = await takenNumbers(
      ctx,
      'walletCash',
      rows.map((r) => str(r.cash_sn).trim()).filter((sn) => sn !== ''),
    );
    const values = [];
    for (const r of rows) {
      const id = int(r.id);
      const userId = ref(r.user_id);
      if (userId === null || !users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      // The family froze the amount applied for and paid it out less the fee; ours freezes amount + fee and pays
      // the amount: the same money, so ours is the amount paid out and the fee on top.
      const charge = cents(r.cash_charge);
      const apply = cents(r.cash_apply_amount) - charge;
      if (apply <= 0) {
        ctx.skip('no amount');
        continue;
      }
      let cashSn = str(r.cash_sn).trim().slice(0, 32);
      if (cashSn === '' || taken.has(cashSn)) cashSn = `DZQ${id}`;
      taken.add(cashSn);
      const status = cashStatusOf(int(r.cash_status));
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const updated = timeOr(r.updated_at, created);
      const remark = str(r.remark) || (status === 6 ? str(r.error_message) : '');
      values.push({
        id,
        cashSn,
        userId,
        applyCents: apply,
        chargeCents: charge,
        receiveAccount: (str(r.receive_account) || str(r.cash_mobile)).slice(0, 100),
        status,
        remark: remark.slice(0, 255),
        reviewerId: null,
        reviewedAt: status === 1 ? null : (time(r.trade_time) ?? updated),
        tradeNo: str(r.trade_no).slice(0, 64) || null,
        createdAt: created,
        updatedAt: updated,
      });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('walletCash').values(chunk).execute());
    ctx.wrote(values.length);
  },
};

// --- Red packets and bounties ----------------------------------------------------------------------------------------

/** The threads' authors (a red packet's author is its thread's). */
async function threadAuthors(ctx: BatchContext, threadIds: number[]): Promise<Map<number, number>> {
  if (threadIds.length === 0) return new Map();
  const found = await ctx.db.selectFrom('threads').select(['id', 'userId']).where('id', 'in', threadIds).execute();
  return new Map(found.map((t) => [t.id, t.userId]));
}

/** The last paid order (types `types`) of each thread, with how it was paid. */
async function payingOrders(ctx: BatchContext, threadIds: number[], types: number[]) {
  const paying = new Map<number, { id: number; paymentType: number | null }>();
  if (threadIds.length === 0) return paying;
  const found = await ctx.db
    .selectFrom('orders')
    .select(['id', 'threadId', 'paymentType'])
    .where('threadId', 'in', threadIds)
    .where('type', 'in', types)
    .where('status', 'in', [OrderStatus.PAID, 5])
    .orderBy('id')
    .execute();
  for (const o of found) if (o.threadId !== null) paying.set(o.threadId, { id: o.id, paymentType: o.paymentType });
  return paying;
}

/** `total` cents in `n` packets as equal as cents allow (the first ones a cent more). */
const evenSplit = (total: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0));

/**
 * thread_red_packets → ours, ids kept (the parts step's 106 rows name them). One still handing out (status 1 with
 * packets and money left) stays valid: its packets left are split again (a random one at random, each at least a
 * cent) and its timer set for 24 hours after it was made (the family's rule), so a day already past returns the rest
 * to its author as soon as the forum runs. Finished ones come over stopped, with nothing left. Who received a packet
 * comes from the ledger (wallet logs step).
 *
 * The family kept a red packet paid through a provider outside the wallet; ours keeps it in the author's frozen money
 * (docs/money.md, 155). Such a running one remembers its order, and the final step credits what is left of it to the
 * author's frozen money, so its packets and its rest leave from there as ours do.
 */
const redPacketsStep: TableStep = {
  kind: 'table',
  table: 'thread_red_packets',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const threads = await ctx.run.ids('threads');
    const threadIds = rows.map((r) => int(r.thread_id)).filter((id) => threads.has(id));
    const [authors, paying] = await Promise.all([
      threadAuthors(ctx, threadIds),
      payingOrders(ctx, threadIds, RED_PACKET_ORDERS),
    ]);
    const seen = new Set<number>();
    for (const r of rows) {
      const threadId = int(r.thread_id);
      const userId = authors.get(threadId);
      if (!threads.has(threadId) || userId === undefined) {
        ctx.skip('thread missing');
        continue;
      }
      if (seen.has(threadId)) {
        ctx.skip('second red packet of a thread');
        continue;
      }
      const existing = await ctx.db
        .selectFrom('threadRedPackets')
        .select('id')
        .where('threadId', '=', threadId)
        .executeTakeFirst();
      if (existing) {
        ctx.skip('second red packet of a thread');
        continue;
      }
      seen.add(threadId);
      const id = int(r.id);
      const rule = int(r.rule) === RedPacketRule.RANDOM ? RedPacketRule.RANDOM : RedPacketRule.EQUAL;
      const number = Math.max(1, int(r.number));
      const money = cents(r.money);
      const remainCents = cents(r.remain_money);
      const remainNumber = int(r.remain_number);
      const open = int(r.status) === RedPacketStatus.VALID && remainCents > 0 && remainNumber > 0;
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const expiresAt = addMs(created, RED_PACKET_TTL_MS);
      const order = paying.get(threadId);
      const providerOrder = open && order && order.paymentType !== PayType.WALLET ? order.id : null;
      await ctx.db
        .insertInto('threadRedPackets')
        .values({
          id,
          threadId,
          postId: int(r.post_id),
          userId,
          rule,
          condition: int(r.condition) === 1 ? 1 : 0,
          likenum: int(r.likenum),
          content: '',
          priceCents: rule === RedPacketRule.EQUAL ? Math.floor(money / number) : money,
          moneyCents: money,
          number,
          remainCents: open ? remainCents : 0,
          remainNumber: open ? remainNumber : 0,
          returnedCents: 0,
          status: open ? RedPacketStatus.VALID : RedPacketStatus.EXPIRED,
          orderId: providerOrder,
          expiresAt,
          createdAt: created,
          updatedAt: timeOr(r.updated_at, created),
        })
        .execute();
      if (open) {
        const amounts =
          rule === RedPacketRule.RANDOM && remainCents >= remainNumber
            ? splitAmounts(RedPacketRule.RANDOM, remainCents, remainNumber)
            : evenSplit(remainCents, remainNumber);
        await insertChunks(
          amounts.map((amountCents, seq) => ({ redPacketId: id, threadId, seq, amountCents })),
          (chunk) => ctx.db.insertInto('threadRedPacketShares').values(chunk).execute(),
        );
        await scheduleTimer(
          ctx.db,
          RED_PACKETS_SUBSCRIBER,
          'red_packet.expiry_due',
          { redPacketId: id, threadId, userId },
          expiresAt,
          ctx.run.startedAt,
        );
      }
      ctx.wrote();
    }
  },
};

/**
 * thread_rewards → thread_bounties, ids kept. One with money left is still open: its timer is due at its deadline
 * (a deadline past returns the rest to the author as soon as the forum runs). One paid through a provider held that
 * money outside the wallet, where ours cannot take it back from: it comes over settled, its rest named in the report
 * for an administrator to return by hand (wallet.update). Awards come from the ledger (wallet logs step).
 */
const bountiesStep: TableStep = {
  kind: 'table',
  table: 'thread_rewards',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const [threads, users] = await Promise.all([ctx.run.ids('threads'), ctx.run.ids('users')]);
    const threadIds = rows.map((r) => int(r.thread_id)).filter((id) => threads.has(id));
    const [authors, paying] = await Promise.all([
      threadAuthors(ctx, threadIds),
      payingOrders(ctx, threadIds, BOUNTY_ORDERS),
    ]);
    const seen = new Set<number>();
    for (const r of rows) {
      const threadId = int(r.thread_id);
      const author = authors.get(threadId);
      if (!threads.has(threadId) || author === undefined) {
        ctx.skip('thread missing');
        continue;
      }
      const exists = await ctx.db
        .selectFrom('threadBounties')
        .select('id')
        .where('threadId', '=', threadId)
        .executeTakeFirst();
      if (seen.has(threadId) || exists) {
        ctx.skip('second bounty of a thread');
        continue;
      }
      seen.add(threadId);
      const userId = users.has(int(r.user_id)) ? int(r.user_id) : author;
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const updated = timeOr(r.updated_at, created);
      const expiresAt = timeOr(r.expired_at, created);
      let remaining = cents(r.remain_money);
      const order = paying.get(threadId);
      if (remaining > 0 && order && order.paymentType !== PayType.WALLET) {
        ctx.run.note(
          `The bounty of thread ${threadId} was paid through a provider: ${(remaining / 100).toFixed(2)} left of it was not in user ${userId}'s wallet on the old site and is not returned by the forum (return it by hand if it is due).`,
        );
        remaining = 0;
      }
      await ctx.db
        .insertInto('threadBounties')
        .values({
          id: int(r.id),
          threadId,
          userId,
          type: int(r.type),
          amountCents: cents(r.money),
          remainingCents: remaining,
          expiresAt,
          settledAt: remaining > 0 ? null : updated,
          createdAt: created,
          updatedAt: updated,
        })
        .execute();
      if (remaining > 0) {
        await scheduleTimer(
          ctx.db,
          BOUNTY_SUBSCRIBER,
          'bounty.expiry_due',
          { threadId, userId },
          expiresAt,
          ctx.run.startedAt,
        );
      }
      ctx.wrote();
    }
  },
};

// --- The ledger ------------------------------------------------------------------------------------------------------

/** Each user's balances after their last imported ledger row (rows come in id order, batch after batch). */
async function lastBalances(ctx: BatchContext, userIds: number[]): Promise<Map<number, [number, number]>> {
  const last = new Map<number, [number, number]>();
  if (userIds.length === 0) return last;
  const found = await ctx.db
    .selectFrom('walletLogs')
    .select(['userId', 'availableAfterCents', 'frozenAfterCents'])
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('walletLogs')
        .select((e) => e.fn.max('id').as('id'))
        .where('userId', 'in', userIds)
        .groupBy('userId'),
    )
    .execute();
  for (const f of found) last.set(f.userId, [Number(f.availableAfterCents), Number(f.frozenAfterCents)]);
  return last;
}

async function existingIds(ctx: BatchContext, table: 'walletCash', ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const found = await ctx.db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return new Set(found.map((f) => f.id));
}

/**
 * user_wallet_logs → wallet_logs, ids kept, types mapped (CHANGE_TYPES). The balances after each row are running sums
 * of the user's rows in id order (the final step adds the opening balance to them where there is one). A packet
 * received and a bounty award received also become the red packet's claimed packet and the bounty's award.
 */
const walletLogsStep: TableStep = {
  kind: 'table',
  table: 'user_wallet_logs',
  key: ['id'],
  async write(rows, ctx) {
    const [users, orders] = await Promise.all([ctx.run.ids('users'), ctx.run.ids('orders')]);
    const kept = rows.filter((r) => users.has(int(r.user_id)));
    if (kept.length < rows.length) ctx.skip('user missing', rows.length - kept.length);
    const cashIds = await existingIds(
      ctx,
      'walletCash',
      kept.flatMap((r) => ref(r.user_wallet_cash_id) ?? []),
    );
    const balances = await lastBalances(ctx, [...new Set(kept.map((r) => int(r.user_id)))]);
    const values = [];
    for (const r of kept) {
      const userId = int(r.user_id);
      const available = cents(r.change_available_amount);
      const frozen = cents(r.change_freeze_amount);
      const [a, f] = balances.get(userId) ?? [0, 0];
      const after: [number, number] = [a + available, f + frozen];
      balances.set(userId, after);
      const orderId = ref(r.order_id);
      const cashId = ref(r.user_wallet_cash_id);
      values.push({
        id: int(r.id),
        userId,
        changeAvailableCents: available,
        changeFrozenCents: frozen,
        availableAfterCents: after[0],
        frozenAfterCents: after[1],
        changeType: changeTypeOf(int(r.change_type)),
        changeDesc: str(r.change_desc).slice(0, 255),
        orderId: orderId !== null && orders.has(orderId) ? orderId : null,
        cashId: cashId !== null && cashIds.has(cashId) ? cashId : null,
        operatorId: null,
        createdAt: timeOr(r.created_at, ctx.run.startedAt),
      });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('walletLogs').values(chunk).execute());
    await rebuildReceipts(ctx, kept);
    ctx.wrote(values.length);
  },
};

/** Packets received (a claimed packet of the red packet) and bounty awards, from their ledger rows. */
async function rebuildReceipts(ctx: BatchContext, rows: DzqRow[]): Promise<void> {
  const packets = rows.filter((r) => PACKET_RECEIVED.has(int(r.change_type)) && ref(r.thread_id) !== null);
  const awards = rows.filter((r) => AWARD_RECEIVED.has(int(r.change_type)) && ref(r.thread_id) !== null);
  if (packets.length > 0) {
    const found = await ctx.db
      .selectFrom('threadRedPackets')
      .select(['id', 'threadId'])
      .where('threadId', 'in', [...new Set(packets.map((r) => int(r.thread_id)))])
      .execute();
    const byThread = new Map(found.map((p) => [p.threadId, p.id]));
    for (const r of packets) {
      const redPacketId = byThread.get(int(r.thread_id));
      if (redPacketId === undefined) continue;
      // Below the packets still to hand out (seq 0…), one per ledger row; a member gets one per thread.
      await ctx.db
        .insertInto('threadRedPacketShares')
        .values({
          redPacketId,
          threadId: int(r.thread_id),
          seq: -int(r.id),
          amountCents: cents(r.change_available_amount),
          userId: int(r.user_id),
          postId: ref(r.post_id),
          receivedAt: timeOr(r.created_at, ctx.run.startedAt),
          seenAt: timeOr(r.created_at, ctx.run.startedAt),
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  if (awards.length > 0) {
    const found = await ctx.db
      .selectFrom('threadBounties')
      .select('threadId')
      .where('threadId', 'in', [...new Set(awards.map((r) => int(r.thread_id)))])
      .execute();
    const bounties = new Set(found.map((b) => b.threadId));
    const values = awards
      .filter((r) => bounties.has(int(r.thread_id)))
      .map((r) => ({
        threadId: int(r.thread_id),
        postId: int(r.post_id),
        userId: int(r.user_id),
        amountCents: cents(r.change_available_amount),
        createdAt: timeOr(r.created_at, ctx.run.startedAt),
      }));
    await insertChunks(values, (chunk) => ctx.db.insertInto('bountyAwards').values(chunk).execute());
  }
}

// --- Final: every wallet sums to its ledger --------------------------------------------------------------------------

const yuan = (c: number) => `${c < 0 ? '-' : '+'}${(Math.abs(c) / 100).toFixed(2)}`;

/** The next free ledger id (ours come after the old site's, whose ids are kept). */
async function nextLogId(trx: Kysely<DB>): Promise<number> {
  const row = await trx
    .selectFrom('walletLogs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0) + 1;
}

/** Provider-paid red packets still handing out: what is left goes into the author's frozen money (155), once. */
async function fundProviderRedPackets(trx: Kysely<DB>, run: ImportRun, locale: 'zh' | 'en'): Promise<void> {
  const packets = await trx
    .selectFrom('threadRedPackets as p')
    .select(['p.id', 'p.threadId', 'p.userId', 'p.remainCents', 'p.orderId'])
    .where('p.status', '=', RedPacketStatus.VALID)
    .where('p.orderId', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('walletLogs as l')
            .select('l.id')
            .whereRef('l.orderId', '=', 'p.orderId')
            .where('l.changeType', '=', WalletChangeType.RED_PACKET_PAID),
        ),
      ),
    )
    .execute();
  let id = await nextLogId(trx);
  for (const p of packets) {
    const rest = Number(p.remainCents);
    if (rest <= 0) continue;
    await ensureWallets(trx, [p.userId], run.startedAt);
    const last = await trx
      .selectFrom('walletLogs')
      .select(['availableAfterCents', 'frozenAfterCents'])
      .where('userId', '=', p.userId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    await trx
      .updateTable('wallets')
      .set({ frozenCents: sql`frozen_cents + ${rest}` })
      .where('userId', '=', p.userId)
      .execute();
    await trx
      .insertInto('walletLogs')
      .values({
        id: id++,
        userId: p.userId,
        changeAvailableCents: 0,
        changeFrozenCents: rest,
        availableAfterCents: Number(last?.availableAfterCents ?? 0),
        frozenAfterCents: Number(last?.frozenAfterCents ?? 0) + rest,
        changeType: WalletChangeType.RED_PACKET_PAID,
        changeDesc: msg('threadParts.redPacketLedgerPaid', { threadId: p.threadId })[locale],
        orderId: p.orderId,
        cashId: null,
        operatorId: null,
        createdAt: run.startedAt,
      })
      .execute();
  }
  if (packets.length > 0) {
    run.note(
      `${packets.length} red packet(s) paid through a provider were still handing out: what was left of them is now in their authors' frozen money (ledger type 155).`,
    );
  }
}

async function ensureWallets(trx: Kysely<DB>, userIds: number[], at: string): Promise<void> {
  await insertChunks(userIds, (chunk) =>
    trx
      .insertInto('wallets')
      .values(chunk.map((userId) => ({ userId, createdAt: at, updatedAt: at })))
      .onConflict((oc) => oc.column('userId').doNothing())
      .execute(),
  );
}

/**
 * After every money table: a wallet for each member with a ledger and none (the old site had no balance for them),
 * red packets paid through a provider funded (above), and, for every wallet whose ledger does not add up to its
 * balance, ONE opening-balance entry (type 190) dated a second before its first entry, making up the difference in
 * available and frozen money; the balances after each of that wallet's other entries move by the same amounts, so
 * they stay running sums. One transaction; a wallet that has its opening entry is never given a second (a final step
 * runs again when a killed import resumes).
 */
export const moneyBalanceStep: FinalStep = {
  kind: 'final',
  name: 'money-opening-balances',
  async run(db: Kysely<DB>, run) {
    await inTransaction(db, async (trx) => {
      const orphans = await trx
        .selectFrom('walletLogs as l')
        .select('l.userId')
        .distinct()
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('wallets as w').select('w.userId').whereRef('w.userId', '=', 'l.userId'))),
        )
        .execute();
      await ensureWallets(
        trx,
        orphans.map((o) => o.userId),
        run.startedAt,
      );
      // Ledger rows are written once, in the site's language (as the modules write theirs).
      const locale = String((await readSiteSettings(trx)).siteLocale ?? 'zh') === 'en' ? 'en' : 'zh';
      await fundProviderRedPackets(trx, run, locale);

      const sums = await trx
        .selectFrom('wallets as w')
        .leftJoin('walletLogs as l', 'l.userId', 'w.userId')
        .select((eb) => [
          'w.userId',
          'w.availableCents',
          'w.frozenCents',
          'w.createdAt',
          eb.fn.coalesce(eb.fn.sum<number | string>('l.changeAvailableCents'), sql<number>`0`).as('available'),
          eb.fn.coalesce(eb.fn.sum<number | string>('l.changeFrozenCents'), sql<number>`0`).as('frozen'),
          eb.fn.min('l.createdAt').as('first'),
          eb.fn
            .sum<number | string>(
              eb.case().when('l.changeType', '=', WalletChangeType.OPENING_BALANCE).then(1).else(0).end(),
            )
            .as('opened'),
        ])
        .groupBy(['w.userId', 'w.availableCents', 'w.frozenCents', 'w.createdAt'])
        .execute();
      let id = await nextLogId(trx);
      let count = 0;
      let totalAvailable = 0;
      let totalFrozen = 0;
      for (const s of sums) {
        const da = Number(s.availableCents) - Number(s.available);
        const df = Number(s.frozenCents) - Number(s.frozen);
        if ((da === 0 && df === 0) || Number(s.opened ?? 0) > 0) continue;
        const first = s.first ?? s.createdAt;
        const at = new Date(Date.parse(first) - 1000).toISOString();
        // Its own balances after come first: the others' move by it.
        await trx
          .updateTable('walletLogs')
          .set({
            availableAfterCents: sql`available_after_cents + ${da}`,
            frozenAfterCents: sql`frozen_after_cents + ${df}`,
          })
          .where('userId', '=', s.userId)
          .execute();
        await trx
          .insertInto('walletLogs')
          .values({
            id: id++,
            userId: s.userId,
            changeAvailableCents: da,
            changeFrozenCents: df,
            availableAfterCents: da,
            frozenAfterCents: df,
            changeType: WalletChangeType.OPENING_BALANCE,
            changeDesc: msg('wallet.openingBalanceImported')[locale],
            orderId: null,
            cashId: null,
            operatorId: null,
            createdAt: at,
          })
          .execute();
        count += 1;
        totalAvailable += da;
        totalFrozen += df;
        if (count <= NAMED_MAX) {
          run.note(`Opening balance for user ${s.userId}: available ${yuan(da)}, frozen ${yuan(df)}.`);
        }
      }
      if (count > 0) {
        run.note(
          `Opening balances: ${count} wallet(s) whose old ledger did not add up to the balance, available ${yuan(totalAvailable)}, frozen ${yuan(totalFrozen)} in all${count > NAMED_MAX ? ` (the first ${NAMED_MAX} named above)` : ''}.`,
        );
      }
    });
  },
};

/** Every money step in its order: run after the accounts and content steps, before the counters. */
export const moneySteps: Step[] = [
  walletsStep,
  ordersStep,
  walletCashStep,
  redPacketsStep,
  bountiesStep,
  walletLogsStep,
  moneyBalanceStep,
];
