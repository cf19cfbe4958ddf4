import type { SiteInfo } from '@luntan/shared';

export const DEFAULT_LOGO = '/static/logo.svg';

/** The header's logo: the header logo, else the site logo, else ours. */
export function siteLogo(site: SiteInfo | null | undefined): string {
  return site?.siteHeaderLogo || site?.siteLogo || DEFAULT_LOGO;
}
