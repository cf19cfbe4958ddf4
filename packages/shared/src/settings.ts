/**
 * Known settings: key, tag, type, default, and whether anyone may read them (public) through siteinfo/forum.
 * The settings call stores only these (plugins get settings of their own).
 * Kinds: `url` is an absolute http(s) address; `image` is one of ours (`/uploads/...`) or an http(s) address.
 */
export type SettingKind = 'string' | 'number' | 'boolean' | 'url' | 'image';

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
  /** Members may send each other private messages (off: -11000). */
  s('dialogOpen', 'boolean', true),
  /** Largest image upload in KiB. */
  s('attachmentSizeLimit', 'number', 5120),
];

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
