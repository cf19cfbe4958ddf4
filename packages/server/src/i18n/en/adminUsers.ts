import type { Texts } from '../texts.js';
import type { adminUsers as zh } from '../zh/adminUsers.js';

/** The server's English messages: adminUsers (the keys of zh/adminUsers.ts). */
export const adminUsers = {
  noSuchUser: 'No such user',
  noSuchUserGroup: 'No such user group',
  guestGroupVisitorsOnly: 'The guest group is for visitors only',
  youCannotLeaveAdministrator: 'You cannot leave the administrator group yourself',
  youCannotChangeOwn: 'You cannot change your own status',
  administratorCannotBannedRemove: 'An administrator cannot be banned: remove them from the administrator group first',
  userNotUnderReview: 'User {{username}} is not under review',
} as const satisfies Texts<typeof zh>;
