import type { Texts } from '../texts.js';
import type { notificationTemplates as zh } from '../zh/notificationTemplates.js';

/** The server's English messages: notificationTemplates (the keys of zh/notificationTemplates.ts). */
export const notificationTemplates = {
  userName: 'user name',
  nickname: 'nickname',
  siteName: 'site name',
  userGroup: 'user group',
  reason: 'reason',
  content: 'content',
  actingUser: 'acting user',
  amount: 'amount',
  formerGroup: 'former group',
  newGroup: 'new group',
  outcome: 'outcome',
  remark: 'remark',
  noSuchNotificationType: 'No such notification type',
  noSuchTemplate: 'No such template',
  titleUnknownPlaceholder: 'The title uses the unknown placeholder {{unknown}}; available: {{available}}',
  contentUnknownPlaceholder: 'The content uses the unknown placeholder {{unknown}}; available: {{available}}',
} as const satisfies Texts<typeof zh>;
