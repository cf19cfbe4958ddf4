import type { SiteInfo } from '@luntan/shared';

export const DEFAULT_LOGO = '/static/logo.svg';

/**
 * What the header shows to name the site: its own logo (the header logo, else the site logo), else its name in words (our logo would say "Luntan" on a
 * site called something else), else our logo.
 */
export function headerBrand(
  site: SiteInfo | null | undefined,
): { kind: 'image'; src: string } | { kind: 'name'; name: string } {
  const own = site?.siteHeaderLogo || site?.siteLogo;
  if (own) return { kind: 'image', src: own };
  const name = site?.siteName?.trim();
  return name ? { kind: 'name', name } : { kind: 'image', src: DEFAULT_LOGO };
}
