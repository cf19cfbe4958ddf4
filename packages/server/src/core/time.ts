/** Times are stored as ISO-8601 UTC strings: sortable as text, identical on SQLite and PostgreSQL. */
export const now = (): string => new Date().toISOString();
export const inMs = (ms: number): string => new Date(Date.now() + ms).toISOString();
