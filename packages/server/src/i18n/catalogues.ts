// Written by scripts/server-messages-to-catalogue.mjs: every feature catalogue, by language.
import { access as zhAccess } from './zh/access.js';
import { account as zhAccount } from './zh/account.js';
import { adminUsers as zhAdminUsers } from './zh/adminUsers.js';
import { app as zhApp } from './zh/app.js';
import { attachments as zhAttachments } from './zh/attachments.js';
import { auth as zhAuth } from './zh/auth.js';
import { captcha as zhCaptcha } from './zh/captcha.js';
import { categories as zhCategories } from './zh/categories.js';
import { core as zhCore } from './zh/core.js';
import { dialogs as zhDialogs } from './zh/dialogs.js';
import { finance as zhFinance } from './zh/finance.js';
import { goods as zhGoods } from './zh/goods.js';
import { groups as zhGroups } from './zh/groups.js';
import { invites as zhInvites } from './zh/invites.js';
import { mail as zhMail } from './zh/mail.js';
import { notificationTemplates as zhNotificationTemplates } from './zh/notificationTemplates.js';
import { notEnabled as zhNotEnabled } from './zh/notEnabled.js';
import { notifications as zhNotifications } from './zh/notifications.js';
import { oauth as zhOauth } from './zh/oauth.js';
import { orders as zhOrders } from './zh/orders.js';
import { people as zhPeople } from './zh/people.js';
import { plugins as zhPlugins } from './zh/plugins.js';
import { posts as zhPosts } from './zh/posts.js';
import { reports as zhReports } from './zh/reports.js';
import { review as zhReview } from './zh/review.js';
import { settings as zhSettings } from './zh/settings.js';
import { signinFields as zhSigninFields } from './zh/signinFields.js';
import { sms as zhSms } from './zh/sms.js';
import { stopWords as zhStopWords } from './zh/stopWords.js';
import { threadParts as zhThreadParts } from './zh/threadParts.js';
import { bounty as zhBounty } from './zh/bounty.js';
import { media as zhMedia } from './zh/media.js';
import { threads as zhThreads } from './zh/threads.js';
import { users as zhUsers } from './zh/users.js';
import { votes as zhVotes } from './zh/votes.js';
import { wallet as zhWallet } from './zh/wallet.js';
import { webhooks as zhWebhooks } from './zh/webhooks.js';
import { wechat as zhWechat } from './zh/wechat.js';
import { withdrawals as zhWithdrawals } from './zh/withdrawals.js';
import { access as enAccess } from './en/access.js';
import { account as enAccount } from './en/account.js';
import { adminUsers as enAdminUsers } from './en/adminUsers.js';
import { app as enApp } from './en/app.js';
import { attachments as enAttachments } from './en/attachments.js';
import { auth as enAuth } from './en/auth.js';
import { captcha as enCaptcha } from './en/captcha.js';
import { categories as enCategories } from './en/categories.js';
import { core as enCore } from './en/core.js';
import { dialogs as enDialogs } from './en/dialogs.js';
import { finance as enFinance } from './en/finance.js';
import { goods as enGoods } from './en/goods.js';
import { groups as enGroups } from './en/groups.js';
import { invites as enInvites } from './en/invites.js';
import { mail as enMail } from './en/mail.js';
import { notificationTemplates as enNotificationTemplates } from './en/notificationTemplates.js';
import { notEnabled as enNotEnabled } from './en/notEnabled.js';
import { notifications as enNotifications } from './en/notifications.js';
import { oauth as enOauth } from './en/oauth.js';
import { orders as enOrders } from './en/orders.js';
import { people as enPeople } from './en/people.js';
import { plugins as enPlugins } from './en/plugins.js';
import { posts as enPosts } from './en/posts.js';
import { reports as enReports } from './en/reports.js';
import { review as enReview } from './en/review.js';
import { settings as enSettings } from './en/settings.js';
import { signinFields as enSigninFields } from './en/signinFields.js';
import { sms as enSms } from './en/sms.js';
import { stopWords as enStopWords } from './en/stopWords.js';
import { threadParts as enThreadParts } from './en/threadParts.js';
import { bounty as enBounty } from './en/bounty.js';
import { media as enMedia } from './en/media.js';
import { threads as enThreads } from './en/threads.js';
import { users as enUsers } from './en/users.js';
import { votes as enVotes } from './en/votes.js';
import { wallet as enWallet } from './en/wallet.js';
import { webhooks as enWebhooks } from './en/webhooks.js';
import { wechat as enWechat } from './en/wechat.js';
import { withdrawals as enWithdrawals } from './en/withdrawals.js';

export const zh = {
  access: zhAccess,
  account: zhAccount,
  adminUsers: zhAdminUsers,
  app: zhApp,
  attachments: zhAttachments,
  auth: zhAuth,
  captcha: zhCaptcha,
  categories: zhCategories,
  core: zhCore,
  dialogs: zhDialogs,
  finance: zhFinance,
  goods: zhGoods,
  groups: zhGroups,
  invites: zhInvites,
  mail: zhMail,
  notificationTemplates: zhNotificationTemplates,
  notEnabled: zhNotEnabled,
  notifications: zhNotifications,
  oauth: zhOauth,
  orders: zhOrders,
  people: zhPeople,
  plugins: zhPlugins,
  posts: zhPosts,
  reports: zhReports,
  review: zhReview,
  settings: zhSettings,
  signinFields: zhSigninFields,
  sms: zhSms,
  stopWords: zhStopWords,
  threadParts: zhThreadParts,
  bounty: zhBounty,
  media: zhMedia,
  threads: zhThreads,
  users: zhUsers,
  votes: zhVotes,
  wallet: zhWallet,
  webhooks: zhWebhooks,
  wechat: zhWechat,
  withdrawals: zhWithdrawals,
};
export const en = {
  access: enAccess,
  account: enAccount,
  adminUsers: enAdminUsers,
  app: enApp,
  attachments: enAttachments,
  auth: enAuth,
  captcha: enCaptcha,
  categories: enCategories,
  core: enCore,
  dialogs: enDialogs,
  finance: enFinance,
  goods: enGoods,
  groups: enGroups,
  invites: enInvites,
  mail: enMail,
  notificationTemplates: enNotificationTemplates,
  notEnabled: enNotEnabled,
  notifications: enNotifications,
  oauth: enOauth,
  orders: enOrders,
  people: enPeople,
  plugins: enPlugins,
  posts: enPosts,
  reports: enReports,
  review: enReview,
  settings: enSettings,
  signinFields: enSigninFields,
  sms: enSms,
  stopWords: enStopWords,
  threadParts: enThreadParts,
  bounty: enBounty,
  media: enMedia,
  threads: enThreads,
  users: enUsers,
  votes: enVotes,
  wallet: enWallet,
  webhooks: enWebhooks,
  wechat: enWechat,
  withdrawals: enWithdrawals,
};
