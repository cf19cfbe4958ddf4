/**
 * Known settings: key, tag, type, default, and whether anyone may read them (public) through siteinfo/forum.
 * The settings call stores only these (plugins get settings of their own).
 * Kinds: `url` is an absolute http(s) address; `image` is one of ours (`/uploads/...`) or an http(s) address;
 * `money` is an amount with at most two decimals, stored as its text ("12.50"; percentages too: "0.60" is 0.6%).
 */
export type SettingKind = 'string' | 'number' | 'boolean' | 'url' | 'image' | 'money';

export interface SettingDefinition {
  key: string;
  tag: string;
  kind: SettingKind;
  default: string | number | boolean;
  public: boolean;
}

const s = (
  key: string,
  kind: SettingKind,
  dflt: string | number | boolean,
  isPublic = true,
  tag = 'default',
): SettingDefinition => ({ key, tag, kind, default: dflt, public: isPublic });

export const SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  s('siteName', 'string', ''),
  s('siteTitle', 'string', ''),
  s('siteKeywords', 'string', ''),
  s('siteIntroduction', 'string', ''),
  s('siteFavicon', 'image', ''),
  s('siteStat', 'string', ''),
  s('siteLogo', 'image', ''),
  s('siteHeaderLogo', 'image', ''),
  s('siteBackgroundImage', 'image', ''),
  s('siteWatermarkImage', 'image', ''),
  s('siteUrl', 'url', ''),
  s('siteRecord', 'string', ''),
  s('siteRecordCode', 'string', ''),
  s('siteClose', 'boolean', false),
  s('siteCloseMsg', 'string', ''),
  s('siteLocale', 'string', 'zh'),
  s('registerClose', 'boolean', false),
  /** New registrations wait for an administrator's review (status 2). */
  s('registerValidate', 'boolean', false),
  /** Registration needs a solved captcha (captcha field of username.register). */
  s('registerCaptcha', 'boolean', false),
  /** Login needs a solved captcha after three failures in a row for the account or the address. */
  s('loginCaptcha', 'boolean', false),
  /** Only newcomers with a valid invitation code (invite.link.create) may register. */
  s('registerInviteOnly', 'boolean', false),
  // The agreements shown on /user/agreement; while registerAgreementOpen, registration asks to accept them.
  s('registerAgreementOpen', 'boolean', false, true, 'agreement'),
  s('registerAgreement', 'string', '', true, 'agreement'),
  s('privacyAgreement', 'string', '', true, 'agreement'),
  /** Members may send each other private messages (off: -11000). */
  s('dialogOpen', 'boolean', true),
  /** Largest image upload in KiB. */
  s('attachmentSizeLimit', 'number', 5120),
  /** Extensions a thread's files (part 108) may have, comma-separated (the family's support_file_ext). */
  s(
    'supportFileExt',
    'string',
    'pdf,doc,docx,xls,xlsx,ppt,pptx,txt,md,csv,zip,rar,7z,gz,png,jpg,jpeg,gif,webp,mp3,mp4',
  ),
  /** Largest file, audio or video upload in MiB (the family's support_max_size; never above the server's 20 MiB). */
  s('supportMaxSize', 'number', 20),
  /** The most files a thread may hold (the family's support_max_upload_attachment_num). */
  s('supportMaxUploadAttachmentNum', 'number', 9),
  // Money (docs/money.md). siteMode 'pay': new members pay sitePrice to join (-3006 until they do).
  s('siteMode', 'string', 'public'),
  s('sitePrice', 'money', '0.00'),
  /** Days a paid joining lasts (0 to PAID_DAYS_MAX); 0: for ever. */
  s('siteExpire', 'number', 0),
  /** Shares of thread sales and rewards in tenths: the author's and the site's (the family's defaults 10 and 0). */
  s('siteAuthorScale', 'number', 10),
  s('siteMasterScale', 'number', 0),
  s('cashMinSum', 'money', '1.00'),
  s('cashMaxSum', 'money', '5000.00'),
  /** Withdrawals a member may apply for per day. */
  s('cashSumLimit', 'number', 5),
  /** The withdrawal fee in percent ("0.60" is 0.6%), frozen with the amount and kept by the site. */
  s('cashRate', 'money', '0.00'),
  s('rechargeMinSum', 'money', '1.00'),
  s('rechargeMaxSum', 'money', '10000.00'),
  /** The sandbox payment provider (development and tests; also on with PAYMENT_SANDBOX=1). */
  s('paySandbox', 'boolean', false, false),
  /** Who pays approved withdrawals out: '' (an administrator, by hand), 'alipay', 'wxpay' or 'sandbox'. */
  s('cashPayoutProvider', 'string', '', false),
  // Payment providers' credentials: never public.
  s('alipayEnabled', 'boolean', false, false, 'pay'),
  s('alipayAppId', 'string', '', false, 'pay'),
  s('alipayPrivateKey', 'string', '', false, 'pay'),
  s('alipayPublicKey', 'string', '', false, 'pay'),
  s('alipayGateway', 'url', '', false, 'pay'),
  s('wxpayEnabled', 'boolean', false, false, 'pay'),
  s('wxpayMchId', 'string', '', false, 'pay'),
  s('wxpayAppId', 'string', '', false, 'pay'),
  s('wxpayApiV3Key', 'string', '', false, 'pay'),
  s('wxpaySerialNo', 'string', '', false, 'pay'),
  s('wxpayPrivateKey', 'string', '', false, 'pay'),
  s('wxpayPublicKey', 'string', '', false, 'pay'),
  s('wxpayPublicKeyId', 'string', '', false, 'pay'),
  // Outgoing mail (verification and password-reset links). SMTP_URL and MAIL_FROM in the environment win.
  /** smtp://user:pass@host:587 or smtps://user:pass@host:465; empty: the site sends no mail. */
  s('smtpUrl', 'string', '', false, 'mail'),
  /** The sender, e.g. "论坛 <noreply@example.com>"; empty: noreply@ the site's host. */
  s('mailFrom', 'string', '', false, 'mail'),
  // SMS (docs/sms.md): the provider ('' off, 'tencent' or 'aliyun'), its keys, the sign and the code template. Never
  // public. SMS_PROVIDER=log (development and tests) wins over them.
  s('smsProvider', 'string', '', false, 'sms'),
  s('smsSignName', 'string', '', false, 'sms'),
  /** The template of the verification code: Tencent's template id (one parameter, the code), Aliyun's template code (${code}). */
  s('smsTemplateId', 'string', '', false, 'sms'),
  s('tencentSecretId', 'string', '', false, 'sms'),
  s('tencentSecretKey', 'string', '', false, 'sms'),
  s('tencentSmsSdkAppId', 'string', '', false, 'sms'),
  s('tencentSmsRegion', 'string', 'ap-guangzhou', false, 'sms'),
  s('aliyunAccessKeyId', 'string', '', false, 'sms'),
  s('aliyunAccessKeySecret', 'string', '', false, 'sms'),
  // WeChat sign-in (official account H5 OAuth, docs/accounts-oauth.md): on when both the app id and secret are set.
  s('wechatAppId', 'string', '', false, 'wechat'),
  s('wechatAppSecret', 'string', '', false, 'wechat'),
  /** WeChat's API (https://api.weixin.qq.com when empty); tests point it at a local stand-in. */
  s('wechatApiBase', 'url', '', false, 'wechat'),
];

/**
 * Settings the server keeps for itself (the captcha's HMAC secret): never in SETTING_DEFINITIONS, so the settings
 * call neither writes nor reads them, and the back office never lists them.
 */
export const INTERNAL_SETTING_TAG = 'internal';

/**
 * The most days a paid joining (siteExpire) may last: 100 years, as for a paid group's days. Every date it leads to
 * stays a four-digit year (dates are compared as text) and within what Date can hold.
 */
export const PAID_DAYS_MAX = 36_500;

/** The SMS providers the back office may choose (smsProvider); '' is off. */
export const SMS_PROVIDERS = ['', 'tencent', 'aliyun'] as const;

export function findSettingDefinition(key: string, tag: string): SettingDefinition | undefined {
  return SETTING_DEFINITIONS.find((d) => d.key === key && d.tag === tag);
}

/**
 * Whether a URL-valued setting may hold `value`: empty, an absolute http(s) address, or (images) a path on this
 * site. Never `javascript:`, `data:` or a protocol-relative `//host` address.
 */
export function isAllowedSettingUrl(kind: 'url' | 'image', value: string): boolean {
  if (value === '') return true;
  if (kind === 'image' && /^\/(?![/\\])[^\s]*$/.test(value)) return true;
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An SMTP server's address as the mail settings take it: smtp:// or smtps://, with a host. */
export function isSmtpUrl(value: string): boolean {
  if (!/^smtps?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}
