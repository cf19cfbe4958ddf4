const CHINA_OFFSET_MS = 8 * 3600_000;

/**
 * A time as Beijing wall-clock "yyyy-MM-dd HH:mm:ss" (Alipay's format): China keeps no daylight saving, so a
 * fixed +08:00 is exact and needs no time-zone data.
 */
export function toChinaDateTime(time: string | Date): string {
  const ms = new Date(time).getTime();
  if (Number.isNaN(ms)) throw new TypeError(`not a time: ${String(time)}`);
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The same instant as RFC 3339 with the +08:00 offset (WeChat Pay's "2026-11-22T18:30:00+08:00"). */
export function toChinaRfc3339(time: string | Date): string {
  return `${toChinaDateTime(time).replace(' ', 'T')}+08:00`;
}
