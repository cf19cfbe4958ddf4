import type { Locale } from '@luntan/shared';
import type { User } from '../db/schema.js';

/** Who is asking, and what they may do. Built once per /api request (access/viewer.ts). */
export interface ViewerContext {
  user: User | null;
  tokenId: number | null;
  groups: { id: number; name: string }[];
  isAdmin: boolean;
  /** Permission keys held (category-scoped ones as `category<ID>.<key>`); administrators hold all implicitly. */
  permissions: Set<string>;
  /** The request came with an API key (access/api-keys.repository.ts): its id and what it may do. */
  apiKey?: { id: number; scope: 'read' | 'write' | 'admin' };
  /** The language the answer is read in (core/i18n.ts requestLocale), for the few texts inside data; zh if unset. */
  locale?: Locale;
}
