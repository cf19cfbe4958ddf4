/**
 * Known settings: key, tag, type, default, and whether anyone may read them (public) through siteinfo/forum.
 * Unknown keys may still be stored by administrators (plugins keep their own under their tag), but they are
 * never public.
 */
export type SettingKind = 'string' | 'number' | 'boolean';

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
  s('siteFavicon', 'string', ''),
  s('siteStat', 'string', ''),
  s('siteLogo', 'string', ''),
  s('siteHeaderLogo', 'string', ''),
  s('siteBackgroundImage', 'string', ''),
  s('siteWatermarkImage', 'string', ''),
  s('siteUrl', 'string', ''),
  s('siteRecord', 'string', ''),
  s('siteRecordCode', 'string', ''),
  s('siteClose', 'boolean', false),
  s('siteCloseMsg', 'string', ''),
  s('siteLocale', 'string', 'zh'),
  s('registerClose', 'boolean', false),
  /** New registrations wait for an administrator's review (status 2). */
  s('registerValidate', 'boolean', false),
  /** Largest image upload in KiB. */
  s('attachmentSizeLimit', 'number', 5120),
];

export function findSettingDefinition(key: string, tag: string): SettingDefinition | undefined {
  return SETTING_DEFINITIONS.find((d) => d.key === key && d.tag === tag);
}
