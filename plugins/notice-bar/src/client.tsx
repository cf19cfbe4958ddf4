/**
 * Notice bar: wraps the site header (header_replace hands the default header over as `children`) and adds a line
 * of notice text under it, in the colours and with the link set in the back office.
 */
import type { ReactNode } from 'react';

type SettingValue = string | number | boolean;

/** The render inputs this plugin reads (the forum passes more). */
export interface NoticeBarProps {
  /** The default header. */
  children?: ReactNode;
  /** Which plugin is rendered: its public settings are here. */
  plugin?: { settings: Record<string, SettingValue> };
}

const DEFAULTS = { background: '#fff4ce', color: '#5c4400' };
/** A colour the back office's colour field gives: #rgb, #rgba, #rrggbb or #rrggbbaa. Anything else falls back. */
const HEX_COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

const text = (value: SettingValue | undefined): string => (typeof value === 'string' ? value.trim() : '');

/** Only web addresses become links (never `javascript:` or `data:`). */
export function safeLink(value: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, 'http://relative.invalid');
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return value;
  } catch {
    return undefined;
  }
}

export function NoticeBar({ children, plugin }: NoticeBarProps) {
  const settings = plugin?.settings ?? {};
  const notice = text(settings.text);
  if (!notice) return <>{children}</>;
  const background = HEX_COLOUR.test(text(settings.background)) ? text(settings.background) : DEFAULTS.background;
  const color = HEX_COLOUR.test(text(settings.color)) ? text(settings.color) : DEFAULTS.color;
  const link = safeLink(text(settings.link));
  return (
    <>
      {children}
      <div
        role="note"
        data-plugin="notice-bar"
        style={{ background, color, padding: '8px 16px', textAlign: 'center', fontSize: 14, lineHeight: 1.5 }}
      >
        {link ? (
          <a href={link} style={{ color, textDecoration: 'underline' }}>
            {notice}
          </a>
        ) : (
          notice
        )}
      </div>
    </>
  );
}
