/**
 * The total of a list whose page has just been read. A page that is not full is the last one, so the total is the
 * rows before it and on it, with no count; an empty first page means an empty list. Only a full page, or one past the
 * end, is counted. On PostgreSQL every statement saved is a round trip: a thread page's replies and the home page's
 * topics usually fit on their first page (docs/performance.md, "thirteenth part").
 */
export function pageTotal(
  rows: number,
  offset: number,
  perPage: number,
  count: () => Promise<number>,
): number | Promise<number> {
  if ((rows > 0 && rows < perPage) || (offset === 0 && rows === 0)) return offset + rows;
  return count();
}
