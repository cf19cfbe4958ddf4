import type { TFunction } from 'i18next';
import { startTransition, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `2026-11-21 08:05` in UTC: the same text on the server and in the browser, so hydration matches. */
export function stableTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/*
 * Times are written from the catalogue's words, not with Intl's date or relative-time formatters: the first of those a
 * page makes loads the browser's locale data, a single task of 25-50 ms on a phone (100-230 ms at the bench's
 * fourfold CPU slowdown), which every page with a time paid during hydration (docs/performance.md).
 */

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;

/** A time as the language's date and time, in the reader's time zone ("2026年10月1日 16:05", "Oct 1, 2026, 4:05 PM"). */
export function dateTimeText(at: number | Date, t: TFunction): string {
  const date = new Date(at);
  const hours = date.getHours();
  return t('time.dateTime', {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    monthName: t(`time.months.${MONTHS[date.getMonth()]!}`),
    day: date.getDate(),
    hours: pad(hours),
    hours12: hours % 12 === 0 ? 12 : hours % 12,
    minutes: pad(date.getMinutes()),
    period: t(hours < 12 ? 'time.am' : 'time.pm'),
    interpolation: { escapeValue: false },
  });
}

/** "3 minutes ago" within a week, the local date and time after that. */
export function friendlyTime(iso: string, t: TFunction, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = now - at;
  if (diff < MINUTE) return t('time.justNow');
  if (diff < HOUR) return t('time.minutesAgo', { count: Math.floor(diff / MINUTE) });
  if (diff < DAY) return t('time.hoursAgo', { count: Math.floor(diff / HOUR) });
  if (diff < 2 * DAY) return t('time.yesterday');
  if (diff < 7 * DAY) return t('time.daysAgo', { count: Math.floor(diff / DAY) });
  return dateTimeText(at, t);
}

/** A time: stable text in the server's HTML, the reader's own local form once the page runs. */
export function TimeText({ iso, className }: { iso: string; className?: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => stableTime(iso));
  useEffect(() => {
    // A transition: after hydration every time of the page changes at once, and that re-render may then be sliced
    // (the stable text is a fine thing to show until it is done).
    startTransition(() => setText(friendlyTime(iso, t)));
  }, [iso, t]);
  return (
    <time className={className} dateTime={iso} title={stableTime(iso)}>
      {text}
    </time>
  );
}
