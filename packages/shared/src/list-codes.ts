/*
 * Numbers the API's lists and orders use, as plain constants apart from the zod schemas that check them
 * (schemas/threads.ts, users.ts, wallet.ts), so the web app's first page can name them without loading zod.
 */

/** The family's thread.list sorts. */
export const ThreadSort = { CREATED: 1, LAST_POSTED: 2, HOT: 3, UPDATED: 4 } as const;
/** The family's thread.list `complex` filters (4, purchased, comes with payments). */
export const ThreadComplex = { MY_DRAFTS: 1, LIKED: 2, FAVORITES: 3, BY_USER: 5 } as const;

/** The viewer's relation to a user: 0 not followed, 1 followed, 2 mutual (each follows the other). */
export const FollowState = { NONE: 0, FOLLOWING: 1, MUTUAL: 2 } as const;
export type FollowStateValue = (typeof FollowState)[keyof typeof FollowState];

/** follow.delete / follow.list: 1 the users someone follows, 2 someone's fans. */
export const FollowType = { FOLLOWING: 1, FANS: 2 } as const;

/**
 * Order types. 30 (top-up) is the family's number for a recharge; 9 is the family's ORDER_TYPE_REDPACKET: a red
 * packet's money paid through a provider, made by thread.create / thread.update (not by order.create).
 */
export const OrderType = {
  REGISTER: 1,
  REWARD: 2,
  THREAD: 3,
  GROUP: 4,
  ATTACHMENT: 7,
  RED_PACKET: 9,
  RECHARGE: 30,
} as const;
export type OrderTypeValue = (typeof OrderType)[keyof typeof OrderType];
export const ORDER_TYPES: readonly OrderTypeValue[] = Object.values(OrderType);
