import { startTransition, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `2026-11-21 08:05` in UTC: the same text on the server and in the browser, so hydration matches. */
export function stableTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/* The formatters, made once per language: making one costs far more than formatting with it, and a page has a time on
   every post. */
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
  return format;
}

/** A time as the language's medium date and short time ("Nov 21, 2026, 8:05 AM"). */
export function dateTimeText(at: number | Date, locale: string): string {
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(locale, format);
  }
  return format.format(at);
}

/** "3 minutes ago" within a week, the local date and time after that. */
export function friendlyTime(iso: string, locale: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = now - at;
  const rtf = relativeFormat(locale);
  if (diff < MINUTE) return rtf.format(0, 'second');
  if (diff < HOUR) return rtf.format(-Math.floor(diff / MINUTE), 'minute');
  if (diff < DAY) return rtf.format(-Math.floor(diff / HOUR), 'hour');
  if (diff < 7 * DAY) return rtf.format(-Math.floor(diff / DAY), 'day');
  return dateTimeText(at, locale);
}

/** A time: stable text in the server's HTML, the reader's own local form once the page runs. */
export function TimeText({ iso, className }: { iso: string; className?: string }) {
  const { i18n } = useTranslation();
  const [text, setText] = useState(() => stableTime(iso));
  useEffect(() => {
    // A transition: after hydration every time of the page changes at once, and that re-render may then be sliced
    // (the stable text is a fine thing to show until it is done).
    startTransition(() => setText(friendlyTime(iso, i18n.language)));
  }, [iso, i18n.language]);
  return (
    <time className={className} dateTime={iso} title={stableTime(iso)}>
      {text}
    </time>
  );
}
