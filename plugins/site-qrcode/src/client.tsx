/**
 * Site QR code: the site's address (or the address set in the back office) as a QR code with a caption, in the home
 * page's right column (right_insert). The code is drawn as one SVG path; the encoder is uqr (small, no
 * dependencies), bundled into this plugin's client file.
 */
import { useSyncExternalStore } from 'react';
import { encode } from 'uqr';

type SettingValue = string | number | boolean;

/** The render inputs this plugin reads (the forum passes more). */
export interface SiteQrCodeProps {
  /** Which plugin is rendered: its public settings are here. */
  plugin?: { settings: Record<string, SettingValue> };
}

export const DEFAULT_CAPTION = '扫码在手机上访问';

const text = (value: SettingValue | undefined): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The address to encode: the setting (an http(s) address, or a path on this site) when there is one, else the
 * site's own address. Empty while the site's address is not known (rendering on the server) and the setting needs it.
 */
export function qrAddress(setting: string, siteAddress: string): string {
  if (!setting) return siteAddress;
  try {
    const url = siteAddress ? new URL(setting, siteAddress) : new URL(setting);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // Not an address: the site's own.
  }
  return siteAddress;
}

/** One SVG path drawing every dark module of a QR matrix as a 1×1 square. */
export function modulesPath(modules: readonly (readonly boolean[])[]): string {
  let d = '';
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return d;
}

const noSubscription = () => () => {};
/** The site's address in the browser; none while rendering on the server. */
const useSiteAddress = () =>
  useSyncExternalStore(
    noSubscription,
    () => `${window.location.origin}/`,
    () => '',
  );

export function SiteQrCode({ plugin }: SiteQrCodeProps) {
  const settings = plugin?.settings ?? {};
  const address = qrAddress(text(settings.url), useSiteAddress());
  if (!address) return null;
  const caption = text(settings.caption) || DEFAULT_CAPTION;
  const { data, size } = encode(address, { ecc: 'M', border: 2 });
  return (
    <figure data-plugin="site-qrcode" style={{ margin: '0 0 16px', textAlign: 'center' }}>
      <svg
        role="img"
        aria-label={address}
        viewBox={`0 0 ${size} ${size}`}
        width={160}
        height={160}
        shapeRendering="crispEdges"
        style={{ background: '#fff', display: 'block', margin: '0 auto' }}
      >
        <path d={modulesPath(data)} fill="#000" />
      </svg>
      <figcaption style={{ fontSize: 13, color: '#64748b', marginTop: 8 }}>{caption}</figcaption>
    </figure>
  );
}
