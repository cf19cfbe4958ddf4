/**
 * The public site's call addresses, grouped by feature: the one place pages and hooks take them from (the back
 * office's are in admin-client.ts; the read queries' in the *-queries.ts files beside this one).
 */
export const endpoints = {
  users: {
    login: '/api/v3/users/username.login',
    register: '/api/v3/users/username.register',
    logout: '/api/v3/users/logout',
    update: '/api/v3/users/update.user',
    passwordForgot: '/api/v3/users/password.forgot',
    passwordReset: '/api/v3/users/password.reset',
    payPasswordReset: '/api/v3/users/pay-password/reset',
    emailBind: '/api/v3/users/email.bind',
    emailVerify: '/api/v3/users/email.verify',
    denyCreate: '/api/v3/users/deny.create',
    denyDelete: '/api/v3/users/deny.delete',
    signinFieldsCreate: '/api/v3/user/signinfields.create',
  },
  sms: {
    send: '/api/v3/users/sms.send',
    login: '/api/v3/users/sms.login',
    bind: '/api/v3/users/sms.bind',
    rebind: '/api/v3/users/sms.rebind',
    verify: '/api/v3/users/sms.verify',
    resetPassword: '/api/v3/users/sms.reset.pwd',
  },
  wechat: {
    qrCode: '/api/v3/users/pc/wechat/h5.genqrcode',
    qrLogin: '/api/v3/users/pc/wechat/h5.login',
  },
  oauth: { unlink: '/api/v3/oauth/unlink' },
  captcha: { challenge: '/api/v3/captcha/challenge' },
  follow: { create: '/api/v3/follow.create', delete: '/api/v3/follow.delete' },
  dialogs: {
    create: '/api/v3/dialog.create',
    update: '/api/v3/dialog.update',
    delete: '/api/v3/dialog.delete',
    sendMessage: '/api/v3/dialog/message.create',
  },
  notifications: { delete: '/api/v3/notification.delete' },
  push: {
    subscribe: '/api/v3/push/subscribe',
    unsubscribe: '/api/v3/push/unsubscribe',
    preferences: '/api/v3/push/preferences',
  },
  invites: { createLink: '/api/v3/invite.link.create' },
  groups: { list: '/api/groups.list.v2' },
  threads: {
    create: '/api/v3/thread.create',
    update: '/api/v3/thread.update',
    paidUsers: '/api/v3/thread.paidusers',
    userStick: '/api/v3/user/thread.stick',
  },
  reports: { create: '/api/v3/reports' },
  goods: { analysis: '/api/v3/goods/analysis' },
  orders: { create: '/api/v3/order.create' },
  pay: { order: '/api/v3/trade/pay/order', sandboxComplete: '/api/v3/pay/sandbox/complete' },
  wallet: { cash: '/api/v3/wallet/cash' },
  plugins: { list: '/api/v3/plugin/list' },
  live: '/api/v3/live',
} as const;
