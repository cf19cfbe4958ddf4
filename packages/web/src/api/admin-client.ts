import type { ApiKeyItem, BackupListData, SettingDefinition } from '@luntan/shared';

/**
 * The back office's calls, grouped by feature: the one place their addresses are written. Pages read through
 * `useAdminQuery(key, adminApi.x.list)` and write through `adminCall(method, adminApi.x.save, body)`
 * (admin/admin-api.ts). An address typed `Endpoint<T>` says what its GET answers, so a read needs no type argument.
 */
export type Endpoint<T> = string & { readonly __answer?: T };

const endpoint = <T>(path: string) => path as Endpoint<T>;

/** One stored setting as the back office reads it (`fromEnvironment`: the variable that decides it). */
export interface StoredSetting {
  key: string;
  tag: SettingDefinition['tag'];
  value: string | number | boolean;
  fromEnvironment?: string;
}

export const adminApi = {
  settings: {
    list: endpoint<StoredSetting[]>('/api/backAdmin/settings'),
    save: '/api/settings.v2',
    uploadLogo: '/api/settings/logo.v2',
    deleteLogo: '/api/settings/delete.logo.v2',
  },
  backups: {
    list: endpoint<BackupListData>('/api/backAdmin/backups'),
    start: '/api/backAdmin/backups',
    delete: '/api/backAdmin/backups.delete',
    schedule: '/api/backAdmin/backups.schedule',
    /** The archive as an attachment: a plain link, the session cookie signs it. */
    download: (id: number) => `/api/backAdmin/backups/download?id=${id}`,
  },
  apiKeys: {
    list: endpoint<ApiKeyItem[]>('/api/backAdmin/apikeys'),
    create: '/api/backAdmin/apikeys',
    /** DELETE, with no body (Fastify refuses an empty body sent as JSON). */
    revoke: (id: number) => `/api/backAdmin/apikeys/${id}`,
  },
  categories: {
    list: '/api/v3/categories',
    create: '/api/backAdmin/categories.create',
    update: '/api/backAdmin/categories.update',
    delete: '/api/backAdmin/categories.delete',
  },
  finance: {
    summary: '/api/statistic/finance.v2',
    chart: '/api/statistic/financeChart.v2',
  },
  groups: {
    list: '/api/groups.list.v2',
    create: '/api/groups.create.v2',
    update: '/api/groups/batchupdate.v2',
    delete: '/api/groups.batchdelete.v2',
  },
  permissions: {
    resource: '/api/group.resource.v2',
    save: '/api/permission.v2',
  },
  oauth: {
    list: '/api/backAdmin/oauth/providers',
    save: '/api/backAdmin/oauth/providers.save',
    delete: '/api/backAdmin/oauth/providers.delete',
  },
  plugins: {
    list: '/api/backAdmin/plugin/list',
    operate: '/api/backAdmin/plugin/operate',
    settings: '/api/backAdmin/plugin/settings',
    upload: '/api/backAdmin/plugin/upload',
  },
  reports: {
    list: '/api/backAdmin/reports',
    batch: '/api/backAdmin/reports/batch',
  },
  review: {
    threads: '/api/backAdmin/manage.thread.list',
    posts: '/api/backAdmin/manage.posts.list',
    submit: '/api/backAdmin/manage.submit.review',
    dialogMessages: '/api/backAdmin/manage.dialog.messages',
    dialogReview: '/api/backAdmin/manage.dialog.review',
  },
  signinFields: {
    list: '/api/admin/signinfields.list.v2',
    create: '/api/admin/signinfields.create.v2',
    update: '/api/admin/signinfields.update.v2',
    examine: '/api/admin/signinfields.examine.v2',
    /** A user's answers (the user's own list, read by the administrator). */
    ofUser: '/api/user/signinfields.list.v2',
  },
  stopWords: {
    list: '/api/stop-words.v2',
    batch: '/api/stop-words/batch.v2',
    export: '/api/stop-words/export.v2',
    delete: (ids: readonly number[]) => `/api/stop-words.v2?id=${ids.join(',')}`,
  },
  templates: {
    list: '/api/notification.v2/tpl',
    detail: '/api/notification.v2/tpl/detail',
    update: '/api/backAdmin/notification/tpl/update',
  },
  users: {
    list: '/api/backAdmin/users',
    examine: '/api/backAdmin/users/examine',
    update: '/api/backAdmin/users/update.user',
    walletLogs: '/api/backAdmin/users.wallet.logs',
    orderLogs: '/api/backAdmin/users.order.logs',
    updateWallet: '/api/backAdmin/users/wallet.update',
  },
  webhooks: {
    list: '/api/backAdmin/webhooks',
    save: '/api/backAdmin/webhooks',
    update: '/api/backAdmin/webhooks.update',
    delete: '/api/backAdmin/webhooks.delete',
    ping: '/api/backAdmin/webhooks.ping',
    deliveries: '/api/backAdmin/webhooks/deliveries',
  },
  withdrawals: {
    list: '/api/backAdmin/users.cash.logs',
    review: '/api/backAdmin/wallet.cash.review',
  },
} as const;
