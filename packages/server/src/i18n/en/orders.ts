import type { Texts } from '../texts.js';
import type { orders as zh } from '../zh/orders.js';

/** The server's English messages: orders (the keys of zh/orders.ts). */
export const orders = {
  sayWhichThread: 'Say which thread',
  threadNotFound: 'thread not found',
  enterAmountRecharge: 'Enter the amount to recharge',
  amountBetween: 'The amount must be between {{min}} and {{max}}',
  threadFree: 'This thread is free',
  youCannotBuyOwn: 'You cannot buy your own thread',
  youCannotRewardOwn: 'You cannot reward your own thread',
  enterAmountReward: 'Enter the amount of the reward',
  rewardMost: 'A reward may be at most {{max}}',
  sayWhichGroup: 'Say which group',
  thereNoSuchGroup: 'There is no such group to buy',
  administratorsHoldEveryPermission: 'Administrators hold every permission already',
  youAlreadyHoldGroupForEver: 'You hold this group for ever already',
  siteFreeJoin: 'This site is free to join',
  youAlreadyJoinedSite: 'You have already joined this site',
  unknownOrderType: 'Unknown order type',
  rechargeCannotPaidFrom: 'A recharge cannot be paid from the wallet',
  redPacketOrderWithThread: "A red packet's order is made with its thread, not on its own",
  redPacketNotFromWallet:
    'A red packet order cannot be paid from the wallet: to pay a red packet from the wallet, choose the wallet when posting',
  siteDoesNotTake: 'This site does not take this payment method',
  paymentServiceNotAvailable: 'The payment service is not available now: try again later or choose another method',
  youAlreadyBoughtThread: 'You have already bought this thread',
  orderAlreadyBeenPaid: 'This order has already been paid',
  orderExpiredPlaceNew: 'This order has expired: place a new one',
  orderClosed: 'This order is closed',
  orderNotFound: 'order not found',
  paymentProviderNotEnabled: 'this payment provider is not enabled',
  sandboxPaymentNotEnabled: 'The sandbox payment is not enabled',
  paymentCallbackFailed: 'The payment callback failed',
} as const satisfies Texts<typeof zh>;
