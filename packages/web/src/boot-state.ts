import type { Locale } from '@luntan/shared';
import type { DehydratedState } from '@tanstack/react-query';
import type { Platform } from './platform/platform';

/** What the server hands to the browser besides the router's own hydration data. */
export interface BootState {
  platform: Platform;
  locale: Locale;
  queries: DehydratedState;
  /** The page was rendered for the member's groups: read its data again as the member once hydrated. */
  forGroups?: true;
}
export const BOOT_STATE_ELEMENT_ID = 'luntan-state';
/**
 * The router's hydration data (loader data, action data, errors) is a data block of its own: like the boot state, it is
 * JSON the browser never runs, so the page needs no inline code for it (the Content-Security-Policy allows none).
 */
export const ROUTER_STATE_ELEMENT_ID = 'luntan-router';

const SCRIPT_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON that is safe inside a `<script>` element (no `</script>`, no `<!--`, no line separators). */
export function scriptSafeJson(value: unknown): string {
  // One pass over the text (a page's boot state is tens of kilobytes).
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]!);
}
