import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `2026-11-21 08:05` in UTC: the same text on the server and in the browser, so hydration matches. */
export function stableTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/** "3 minutes ago" within a week, the local date and time after that. */
export function friendlyTime(iso: string, locale: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = now - at;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (diff < MINUTE) return rtf.format(0, 'second');
  if (diff < HOUR) return rtf.format(-Math.floor(diff / MINUTE), 'minute');
  if (diff < DAY) return rtf.format(-Math.floor(diff / HOUR), 'hour');
  if (diff < 7 * DAY) return rtf.format(-Math.floor(diff / DAY), 'day');
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/** A time: stable text in the server's HTML, the reader's own local form once the page runs. */
export function TimeText({ iso, className }: { iso: string; className?: string }) {
  const { i18n } = useTranslation();
  const [text, setText] = useState(() => stableTime(iso));
  useEffect(() => {
    setText(friendlyTime(iso, i18n.language));
  }, [iso, i18n.language]);
  return (
    <time className={className} dateTime={iso} title={stableTime(iso)}>
      {text}
    </time>
  );
}
