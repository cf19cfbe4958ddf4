import { z } from 'zod';
import { bodyId } from './categories.js';
import { CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';
import { problem } from '../validation-messages.js';

/**
 * Signing in with other services: OpenID Connect providers configured in the back office, and WeChat
 * (docs/accounts-oauth.md).
 */

const line = (max: number, min = 0) => z.string().trim().min(min).max(max).refine(noControlChars, CONTROL_CHARS);

/** A provider's name in our URLs: lower-case letters, digits and hyphens. */
export const OAUTH_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

export const oauthProviderSaveBody = z.object({
  /** Absent: a new provider. */
  id: bodyId.optional(),
  slug: labeled(
    z
      .string()
      .trim()
      .refine(
        (s) => OAUTH_SLUG_PATTERN.test(s),
        problem({
          kind: 'sentence',
          zh: '标识只能用小写字母、数字和连字符，最多 32 个字符',
          en: 'The slug may hold lower-case letters, digits and hyphens, at most 32 characters',
        }),
      ),
    { zh: '标识', en: 'Slug' },
  ),
  issuer: labeled(
    z
      .string()
      .trim()
      .max(500)
      .refine(
        (s) => /^https?:\/\/[^\s/]+/.test(s) && URL.canParse(s),
        problem({
          kind: 'sentence',
          zh: '签发者地址需要是 http:// 或 https:// 开头的网址',
          en: 'The issuer must be an http:// or https:// address',
        }),
      ),
    { zh: '签发者地址', en: 'Issuer URL' },
  ),
  clientId: labeled(line(255, 1), { zh: '客户端 ID', en: 'Client ID' }),
  /** Empty or absent when editing: the stored secret stays. */
  clientSecret: labeled(z.string().max(1000).optional(), { zh: '客户端密钥', en: 'Client secret' }),
  labelZh: labeled(line(50, 1), { zh: '按钮文字（中文）', en: 'Button label (Chinese)' }),
  labelEn: labeled(line(50, 1), { zh: '按钮文字（英文）', en: 'Button label (English)' }),
  scopes: labeled(
    z
      .string()
      .trim()
      .max(255)
      .refine(
        (s) => s === '' || /^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(s),
        problem({ kind: 'sentence', zh: '权限范围用空格分隔', en: 'Scopes are separated by spaces' }),
      )
      .optional(),
    { zh: '权限范围', en: 'Scopes' },
  ),
  enabled: z.boolean().default(true),
  sort: z.number().int().min(0).max(9999).default(0),
});
export type OauthProviderSaveBody = z.infer<typeof oauthProviderSaveBody>;

export const oauthProviderDeleteBody = z.object({ id: bodyId });

/** A provider as the back office sees it: never its secret. */
export interface OauthProviderAdminItem {
  id: number;
  slug: string;
  issuer: string;
  clientId: string;
  hasSecret: boolean;
  labelZh: string;
  labelEn: string;
  scopes: string;
  enabled: boolean;
  sort: number;
  /** Accounts linked to it. */
  identityCount: number;
  /** The address to register with the provider as the redirect (callback) URL. */
  callbackUrl: string;
  createdAt: string;
  updatedAt: string;
}

/** What the login page needs: the buttons to show. */
export interface OauthPublicProviders {
  providers: { id: number; slug: string; labelZh: string; labelEn: string }[];
  /** WeChat sign-in is configured (an app id and secret are set). */
  wechat: boolean;
}

/** Where a sign-in with a provider goes when it is done: a path on this site. */
export const sameSitePath = z
  .string()
  .max(500)
  .optional()
  .transform((s) => (s && /^\/(?![/\\])[^\s]*$/.test(s) ? s : '/'));

export const oauthStartQuery = z.object({
  redirect: sameSitePath,
  /** 1: the signed-in viewer links this provider to their account (from /my). */
  link: z.enum(['0', '1']).optional(),
});

export const oauthCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(500).optional(),
});

export const oauthUnlinkBody = z.union([z.object({ providerId: bodyId }), z.object({ kind: z.literal('wechat') })]);
export type OauthUnlinkBody = z.infer<typeof oauthUnlinkBody>;

/** One way to sign in, as /my lists it: every enabled provider (and WeChat when configured), linked or not. */
export interface LinkedAccountItem {
  kind: 'oidc' | 'wechat';
  /** 0 for WeChat. */
  providerId: number;
  slug: string;
  labelZh: string;
  labelEn: string;
  linked: boolean;
  /** The provider's name or e-mail for the linked identity. */
  email: string;
  displayName: string;
  linkedAt: string | null;
  /** Provider switched off: it may be unlinked but not linked. */
  enabled: boolean;
}

export interface LinkedAccounts {
  /** The account has a password its owner set (accounts made by an outside sign-in have none until one is set). */
  hasPassword: boolean;
  accounts: LinkedAccountItem[];
}

/**
 * Why a sign-in with a provider ended on the login page (`/user/login?oauthError=<code>`) or on /my: the page
 * writes the sentence.
 */
export const OAUTH_ERRORS = [
  'denied',
  'state',
  'provider',
  'unknownProvider',
  'registerClosed',
  'inviteOnly',
  'linkedElsewhere',
  'alreadyLinked',
  'needLogin',
  'siteClosed',
  'banned',
  'review',
  'rejected',
  'stopWord',
] as const;
export type OauthError = (typeof OAUTH_ERRORS)[number];

/** WeChat (the family's calls: users/wechat/h5.*, users/pc/wechat/h5.*). */
export const WECHAT_PURPOSES = ['login', 'bind', 'rebind', 'pc_login', 'pc_bind', 'pc_rebind'] as const;
export type WechatPurpose = (typeof WECHAT_PURPOSES)[number];

export const wechatOauthQuery = z.object({
  /** login (default), bind and rebind (signed in), pc (the phone finishing a desktop's QR session). */
  type: z.enum(['login', 'bind', 'rebind', 'pc']).default('login'),
  redirect: sameSitePath,
  sessionToken: z.string().max(64).optional(),
});

export const wechatCodeQuery = z.object({
  code: z.string().min(1).max(512),
  state: z.string().min(1).max(200),
});

export const wechatQrQuery = z.object({
  /** pc_login: sign the desktop in; pc_bind: bind WeChat to the desktop's signed-in account. */
  type: z.enum(['pc_login', 'pc_bind']).default('pc_login'),
});

export const wechatQrPollQuery = z.object({ sessionToken: z.string().min(1).max(64) });

/**
 * GET /api/v3/users/pc/wechat.rebind.genqrcode: a QR session that replaces the signed-in account's WeChat. The
 * family's client also sends `redirectUri` (where its own page went afterwards); the phone's page here is the same.
 */
export const wechatRebindQrQuery = z.object({ redirectUri: z.string().max(2000).optional() });

export interface WechatQrCode {
  sessionToken: string;
  /** The address the phone opens: put it in the QR code. */
  url: string;
  /** Seconds the code stays valid. */
  expiresIn: number;
}

export interface WechatQrStatus {
  /** pending until the phone finishes; done: signed in (the session follows) or bound. */
  status: 'pending' | 'done';
  accessToken?: string;
  userId?: number;
  userStatus?: number;
  expiresIn?: number;
}

/** What h5.login, h5.bind and h5.rebind answer: a session when signing in, and where the page goes next. */
export interface WechatSignIn {
  accessToken?: string;
  userId: number;
  userStatus: number;
  expiresIn?: number;
  redirect: string;
  /** true when the sign-in created the account. */
  created: boolean;
}
