/* Plain constants (no zod), so the web app's first page can use them. */
/** The kinds of what a member's open pages are told at once over the live stream (GET /api/v3/live). */
export const LIVE_EVENT_KINDS = ['dialogMessage', 'dialogRead', 'unread', 'notification', 'logout'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];
