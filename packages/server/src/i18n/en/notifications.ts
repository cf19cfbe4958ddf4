import type { Texts } from '../texts.js';
import type { notifications as zh } from '../zh/notifications.js';

/** The server's English messages: notifications (the keys of zh/notifications.ts). */
export const notifications = {
  noSuchNotification: 'No such notification',
  anonymousActor: 'Anonymous',
  withdrawalApproved: 'was approved and waits to be paid out',
  withdrawalPaid: 'has been paid out',
  withdrawalRejected: 'was rejected',
  withdrawalPayoutFailed: 'could not be paid out',
} as const satisfies Texts<typeof zh>;
