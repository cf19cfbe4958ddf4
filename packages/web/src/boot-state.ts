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

/** JSON that is safe inside a `<script>` element (no `</script>`, no `<!--`, no line separators). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
