import {
  Code,
  findSettingDefinition,
  formatMoney,
  isAllowedSettingUrl,
  isSmtpUrl,
  parseMoney,
  isLocale,
  LOCALES,
  SETTING_DEFINITIONS,
  SMS_PROVIDERS,
  type FieldProblem,
  CLIENT_VERSION,
  FILES_PART_MAX,
  PAID_DAYS_MAX,
  type Locale,
  type SiteInfo,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../core/errors.js';
import { UPLOAD_LIMIT_BYTES } from '../../core/multipart.js';
import { readSetting, readSettings, readTag, writeSetting } from './settings.repository.js';
import { msg } from '../../i18n/index.js';

export type SettingScalar = string | number | boolean;

/**
 * The whole numbers each number setting may hold (without max: up to the largest safe integer; a number setting not
 * listed: from 0). Out of range, a setting breaks what reads it: siteExpire beyond 100 years gave dates Date cannot
 * hold (paying the joining fee failed) or six-digit years (sorted before today as text), a negative one joining for
 * ever.
 */
const NUMBER_RANGES: Readonly<Record<string, { min: number; max?: number }>> = {
  /** KiB, at most the server's upload limit (uploads above it are refused whatever the setting says). */
  attachmentSizeLimit: { min: 1, max: UPLOAD_LIMIT_BYTES / 1024 },
  /** MiB, likewise. */
  supportMaxSize: { min: 1, max: UPLOAD_LIMIT_BYTES / 1024 / 1024 },
  /** Files in a thread: at least one (0 used to read as the default 9), at most what the thread's schema lets through. */
  supportMaxUploadAttachmentNum: { min: 1, max: FILES_PART_MAX },
  /** Days; 0: for ever. */
  siteExpire: { min: 0, max: PAID_DAYS_MAX },
  /** Tenths of the income split. */
  siteAuthorScale: { min: 0, max: 10 },
  siteMasterScale: { min: 0, max: 10 },
  /** Withdrawals per day; 0: no limit. */
  cashSumLimit: { min: 0 },
};

/** Settings are stored as text; booleans as "1"/"0". */
export function encodeSetting(value: SettingScalar): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/**
 * Reads a stored text back with the type its definition gives (unknown settings stay text). A URL-valued setting
 * stored before URLs were checked, and not an acceptable URL, reads as empty: it is never put into a page.
 */
export function decodeSetting(key: string, tag: string, stored: string | undefined): SettingScalar {
  const def = findSettingDefinition(key, tag);
  if (!def) return stored ?? '';
  if (stored === undefined) return def.default;
  switch (def.kind) {
    case 'boolean':
      return stored === '1' || stored === 'true';
    case 'number': {
      const n = Number(stored);
      return Number.isFinite(n) ? n : def.default;
    }
    case 'url':
    case 'image':
      return isAllowedSettingUrl(def.kind, stored) ? stored : '';
    case 'money': {
      const cents = parseMoney(stored);
      return cents === null ? def.default : formatMoney(cents);
    }
    default:
      return stored;
  }
}

/**
 * Checks an entry of the settings call: `key` when there is no such setting (only known settings are stored),
 * `value` when it does not fit the setting; null when it may be stored.
 */
export function checkSettingValue(
  key: string,
  tag: string,
  value: SettingScalar,
): { part: 'key' | 'value'; problem: FieldProblem } | null {
  const def = findSettingDefinition(key, tag);
  if (!def) {
    return {
      part: 'key',
      problem: {
        kind: 'sentence',
        ...msg('settings.noSettingNamed', { key, tag }),
      },
    };
  }
  const wrong = (problem: FieldProblem) => ({ part: 'value' as const, problem });
  switch (def.kind) {
    case 'boolean':
      return typeof value === 'boolean' || value === 0 || value === 1 || value === '0' || value === '1'
        ? null
        : wrong({ kind: 'notType', expected: 'boolean' });
    case 'number': {
      const n = typeof value === 'boolean' || String(value).trim() === '' ? NaN : Number(value);
      const range = NUMBER_RANGES[key] ?? { min: 0 };
      if (Number.isSafeInteger(n) && n >= range.min && n <= (range.max ?? Number.MAX_SAFE_INTEGER)) return null;
      return wrong({
        kind: 'sentence',
        ...(range.max === undefined
          ? msg('settings.wholeNumberAtLeast', { key, min: range.min })
          : msg('settings.wholeNumberFromTo', { key, min: range.min, max: range.max })),
      });
    }
    case 'url':
      return typeof value === 'string' && isAllowedSettingUrl('url', value)
        ? null
        : wrong({
            kind: 'sentence',
            ...msg('settings.httpAddress', { key }),
          });
    case 'image':
      return typeof value === 'string' && isAllowedSettingUrl('image', value)
        ? null
        : wrong({
            kind: 'sentence',
            ...msg('settings.imagePathOrAddress', { key }),
          });
    case 'money':
      return (typeof value === 'string' || typeof value === 'number') && parseMoney(value) !== null
        ? null
        : wrong({ kind: 'badFormat', format: 'money' });
    default:
      if (key === 'smtpUrl' && value !== '' && !(typeof value === 'string' && isSmtpUrl(value.trim()))) {
        return wrong({
          kind: 'sentence',
          ...msg('settings.smtpUrlFormat'),
        });
      }
      if (key === 'siteMode' && value !== 'public' && value !== 'pay') {
        return wrong({ kind: 'notOneOf', values: ['public', 'pay'] });
      }
      if (key === 'smsProvider' && !(SMS_PROVIDERS as readonly unknown[]).includes(value)) {
        return wrong({ kind: 'notOneOf', values: [...SMS_PROVIDERS] });
      }
      return key === 'siteLocale' && !isLocale(value) ? wrong({ kind: 'notOneOf', values: [...LOCALES] }) : null;
  }
}

export async function readSiteSettings(db: Kysely<DB>): Promise<Record<string, SettingScalar>> {
  const rows = await readTag(db, 'default');
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const out: Record<string, SettingScalar> = {};
  for (const def of SETTING_DEFINITIONS) {
    if (def.tag === 'default') out[def.key] = decodeSetting(def.key, def.tag, stored.get(def.key));
  }
  return out;
}

/** Every known setting of one tag (e.g. `sms`), typed, with its default when not stored. */
export async function readTagSettings(db: Kysely<DB>, tag: string): Promise<Record<string, SettingScalar>> {
  const stored = new Map((await readTag(db, tag)).map((r) => [r.key, r.value]));
  const out: Record<string, SettingScalar> = {};
  for (const def of SETTING_DEFINITIONS) {
    if (def.tag === tag) out[def.key] = decodeSetting(def.key, def.tag, stored.get(def.key));
  }
  return out;
}

/**
 * Public site information: only settings marked public, never a secret. `smtpUrl` is the environment's SMTP_URL,
 * which wins over the back office's: only whether mail is on leaves, never the address.
 */
export async function readSiteInfo(
  db: Kysely<DB>,
  env: { smtpUrl?: string | undefined; smsEnabled?: boolean } = {},
): Promise<SiteInfo> {
  const [s, agreementOpen] = await Promise.all([
    readSiteSettings(db),
    readSetting(db, 'registerAgreementOpen', 'agreement'),
  ]);
  const smtpUrl = env.smtpUrl ?? (await readSetting(db, 'smtpUrl', 'mail'))?.value ?? '';
  const str = (k: string) => String(s[k] ?? '');
  return {
    siteName: str('siteName'),
    siteKeywords: str('siteKeywords'),
    siteIntroduction: str('siteIntroduction'),
    siteFavicon: str('siteFavicon'),
    siteStat: str('siteStat'),
    siteLogo: str('siteLogo'),
    siteHeaderLogo: str('siteHeaderLogo'),
    siteBackgroundImage: str('siteBackgroundImage'),
    siteUrl: str('siteUrl'),
    version: CLIENT_VERSION,
    siteRecord: str('siteRecord'),
    siteRecordCode: str('siteRecordCode'),
    siteClose: s.siteClose === true,
    siteCloseMsg: str('siteCloseMsg'),
    siteLocale: str('siteLocale'),
    registerClose: s.registerClose === true,
    registerCaptcha: s.registerCaptcha === true,
    loginCaptcha: s.loginCaptcha === true,
    registerInviteOnly: s.registerInviteOnly === true,
    registerAgreementOpen: decodeSetting('registerAgreementOpen', 'agreement', agreementOpen?.value) === true,
    siteMode: s.siteMode === 'pay' ? 'pay' : 'public',
    sitePrice: str('sitePrice'),
    siteExpire: Number(s.siteExpire) || 0,
    mailEnabled: isSmtpUrl(smtpUrl.trim()),
    smsEnabled: env.smsEnabled ?? false,
  };
}

export async function writeSettings(
  db: Kysely<DB>,
  entries: readonly { key: string; tag: string; value: SettingScalar }[],
): Promise<void> {
  for (const e of entries) await writeSetting(db, e.key, e.tag, encodeSetting(e.value));
}

/** Whether the site is closed to everyone but administrators (one indexed read, made on every /api request). */
export async function isSiteClosed(db: Kysely<DB>): Promise<boolean> {
  const row = await readSetting(db, 'siteClose', 'default');
  return row ? decodeSetting('siteClose', 'default', row.value) === true : false;
}

/**
 * What every /api request needs of the settings, in one indexed read: whether the site is closed, its mode (a paid
 * site stops members who owe the joining fee), and its default language (for the messages of a visitor who chose
 * none).
 */
/** What every /api request checks first: whether the site is closed, its mode and its default language. */
export interface SiteGate {
  closed: boolean;
  siteMode: string;
  locale: Locale | undefined;
}

export async function readSiteGate(db: Kysely<DB>): Promise<SiteGate> {
  const rows = await readSettings(db, ['siteClose', 'siteLocale', 'siteMode'], 'default');
  const value = (key: string) => rows.find((row) => row.key === key)?.value;
  const closed = value('siteClose');
  const locale = value('siteLocale') ?? findSettingDefinition('siteLocale', 'default')?.default;
  return {
    closed: closed !== undefined && decodeSetting('siteClose', 'default', closed) === true,
    siteMode: String(decodeSetting('siteMode', 'default', value('siteMode'))),
    locale: isLocale(locale) ? locale : undefined,
  };
}

/** The answer to a non-administrator while the site is closed; Data carries the administrator's notice. */
export async function siteClosedError(db: Kysely<DB>): Promise<AppError> {
  const notice = await readSetting(db, 'siteCloseMsg', 'default');
  return new AppError(Code.SITE_CLOSED, undefined, { data: { siteCloseMsg: notice?.value ?? '' } });
}

/** Whether members may send private messages (the dialogOpen switch of the site settings). */
export async function isDialogOpen(db: Kysely<DB>): Promise<boolean> {
  const row = await readSetting(db, 'dialogOpen', 'default');
  return decodeSetting('dialogOpen', 'default', row?.value) === true;
}

/** The agreements (tag agreement): whether registration asks to accept them, and their texts. */
export async function readAgreements(
  db: Kysely<DB>,
): Promise<{ registerAgreementOpen: boolean; registerAgreement: string; privacyAgreement: string }> {
  const rows = await readTag(db, 'agreement');
  const value = (key: string) => decodeSetting(key, 'agreement', rows.find((r) => r.key === key)?.value);
  return {
    registerAgreementOpen: value('registerAgreementOpen') === true,
    registerAgreement: String(value('registerAgreement')),
    privacyAgreement: String(value('privacyAgreement')),
  };
}

/**
 * The site's own address for links that leave it (a sign-in provider's redirect back): the siteUrl setting, else
 * `fallback` (the address the request came to), without a trailing slash.
 */
export async function siteBaseUrl(db: Kysely<DB>, fallback: string): Promise<string> {
  const row = await readSetting(db, 'siteUrl', 'default');
  const configured = String(decodeSetting('siteUrl', 'default', row?.value));
  return (configured || fallback).replace(/\/+$/, '');
}

/**
 * Settings whose value the server's environment decides, whatever is stored, with the variable that decides each.
 * (SMTP_URL and MAIL_FROM win over smtpUrl and mailFrom too, but their values are secrets or addresses the mail page
 * should not show; that page says so in one note.)
 */
export function environmentSettings(
  config: Pick<Config, 'paymentSandbox'>,
): { key: string; tag: string; value: boolean; fromEnvironment: string }[] {
  return config.paymentSandbox
    ? [{ key: 'paySandbox', tag: 'default', value: true, fromEnvironment: 'PAYMENT_SANDBOX' }]
    : [];
}
