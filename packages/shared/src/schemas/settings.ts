import { z } from 'zod';
import { labeled } from './field-labels.js';

const settingKey = labeled(z.string().trim().min(1).max(100), { zh: '设置项', en: 'Setting key' });
const settingTag = labeled(z.string().trim().min(1).max(50), { zh: '设置分组', en: 'Setting group' });

/**
 * The spec's client rule says value is a number; real settings hold text (site name, statistics snippet), so the
 * server accepts a string, a number or a boolean and stores it as text.
 */
export const settingValue = labeled(z.union([z.string().max(100_000), z.number().finite(), z.boolean()]), {
  zh: '设置值',
  en: 'Setting value',
});

export const settingsUpdateBody = z.object({
  data: labeled(
    z
      .array(z.object({ key: settingKey, value: settingValue, tag: settingTag }))
      .min(1)
      .max(200),
    { zh: '设置', en: 'The settings' },
  ),
});
export type SettingsUpdateBody = z.infer<typeof settingsUpdateBody>;

export const settingsQuery = z.object({ key: settingKey, tag: settingTag });

export const LOGO_TYPES = ['logo', 'header_logo', 'background_image', 'watermark_image', 'favicon'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const logoType = labeled(z.enum(LOGO_TYPES), { zh: '图片类型', en: 'Image type' });

/** JSON form of the logo upload: `logo` is a data URL (`data:image/png;base64,...`). Multipart is accepted too. */
export const logoUploadBody = z.object({
  type: logoType,
  logo: labeled(z.string().min(1).max(8_000_000), { zh: '图片', en: 'Image' }),
});
export const logoDeleteBody = z.object({ type: logoType });

/** Public site information (GET /api/siteinfo.v2): never a secret. */
export const siteInfoSchema = z.object({
  siteName: z.string(),
  siteKeywords: z.string(),
  siteIntroduction: z.string(),
  siteFavicon: z.string(),
  siteStat: z.string(),
  siteLogo: z.string(),
  siteHeaderLogo: z.string(),
  siteBackgroundImage: z.string(),
  siteUrl: z.string(),
  version: z.string(),
  siteRecord: z.string(),
  siteRecordCode: z.string(),
  siteClose: z.boolean(),
  siteCloseMsg: z.string(),
  siteLocale: z.string(),
  registerClose: z.boolean(),
  /** Registration needs a captcha; login needs one after three failures (the login answers -4001 field captcha). */
  registerCaptcha: z.boolean(),
  loginCaptcha: z.boolean(),
  /** Registration needs an invitation code (?inviteCode= of the link). */
  registerInviteOnly: z.boolean(),
  /** Registration asks to accept the agreements (GET /api/v3/agreement, page /user/agreement). */
  registerAgreementOpen: z.boolean(),
  /** 'public', or 'pay': new members pay sitePrice ("12.50") to join, for siteExpire days (0: for ever). */
  siteMode: z.enum(['public', 'pay']),
  sitePrice: z.string(),
  siteExpire: z.number(),
  /** Whether the site sends mail (SMTP configured): without it the e-mail and forgot-password pages say so. */
  mailEnabled: z.boolean(),
  /** Whether codes can be sent by SMS (a provider is configured): the phone sign-in and binding pages need it. */
  smsEnabled: z.boolean(),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;
