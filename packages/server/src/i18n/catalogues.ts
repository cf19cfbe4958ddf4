// Written by scripts/server-messages-to-catalogue.mjs: every feature catalogue, by language.
import { access as zhAccess } from './zh/access.js';
import { attachments as zhAttachments } from './zh/attachments.js';
import { categories as zhCategories } from './zh/categories.js';
import { core as zhCore } from './zh/core.js';
import { dialogs as zhDialogs } from './zh/dialogs.js';
import { finance as zhFinance } from './zh/finance.js';
import { groups as zhGroups } from './zh/groups.js';
import { invites as zhInvites } from './zh/invites.js';
import { notificationTemplates as zhNotificationTemplates } from './zh/notificationTemplates.js';
import { reports as zhReports } from './zh/reports.js';
import { review as zhReview } from './zh/review.js';
import { stopWords as zhStopWords } from './zh/stopWords.js';
import { webhooks as zhWebhooks } from './zh/webhooks.js';
import { withdrawals as zhWithdrawals } from './zh/withdrawals.js';
import { access as enAccess } from './en/access.js';
import { attachments as enAttachments } from './en/attachments.js';
import { categories as enCategories } from './en/categories.js';
import { core as enCore } from './en/core.js';
import { dialogs as enDialogs } from './en/dialogs.js';
import { finance as enFinance } from './en/finance.js';
import { groups as enGroups } from './en/groups.js';
import { invites as enInvites } from './en/invites.js';
import { notificationTemplates as enNotificationTemplates } from './en/notificationTemplates.js';
import { reports as enReports } from './en/reports.js';
import { review as enReview } from './en/review.js';
import { stopWords as enStopWords } from './en/stopWords.js';
import { webhooks as enWebhooks } from './en/webhooks.js';
import { withdrawals as enWithdrawals } from './en/withdrawals.js';

export const zh = {
  access: zhAccess,
  attachments: zhAttachments,
  categories: zhCategories,
  core: zhCore,
  dialogs: zhDialogs,
  finance: zhFinance,
  groups: zhGroups,
  invites: zhInvites,
  notificationTemplates: zhNotificationTemplates,
  reports: zhReports,
  review: zhReview,
  stopWords: zhStopWords,
  webhooks: zhWebhooks,
  withdrawals: zhWithdrawals,
};
export const en = {
  access: enAccess,
  attachments: enAttachments,
  categories: enCategories,
  core: enCore,
  dialogs: enDialogs,
  finance: enFinance,
  groups: enGroups,
  invites: enInvites,
  notificationTemplates: enNotificationTemplates,
  reports: enReports,
  review: enReview,
  stopWords: enStopWords,
  webhooks: enWebhooks,
  withdrawals: enWithdrawals,
};
