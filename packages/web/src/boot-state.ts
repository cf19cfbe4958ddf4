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

/** JSON that is safe inside a `<script>` element (no `</script>`, no `<!--`, no line separators). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
