/** The spec's routes that need a login or a completed profile (section 2), plus the viewer's own pages. */
export const LOGIN_REQUIRED_ROUTES = [
  '/user/agreement',
  '/user/wx-auth',
  '/user/phone-login',
  '/user/username-login',
  '/user/wx-login',
  '/user/wx-authorization',
  '/user/wx-bind',
  '/user/wx-bind-phone',
  '/user/wx-bind-qrcode',
  '/user/wx-bind-username',
  '/user/wx-select',
  '/user/status',
  '/user/supplementary',
  '/user/reset-password',
  '/user/bind-phone',
  '/user/bind-nickname',
  '/user/rebind',
  '/user/wx-rebind-action',
  '/forum/partner-invite',
  '/wallet',
  '/wallet/recharge',
] as const;

/** Pages of this app that only make sense for a signed-in user. */
export const OWN_GUARDED_ROUTES = ['/my', '/message'] as const;
