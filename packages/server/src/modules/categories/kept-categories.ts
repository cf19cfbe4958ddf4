import type { AppContext } from '../../context.js';
import { VersionedValue } from '../../core/cache-versions.js';
import type { Category } from '../../db/schema.js';
import { listCategories } from './categories.repository.js';

const kept = new WeakMap<AppContext, VersionedValue<readonly Category[]>>();

/**
 * Every category, as listCategories reads them, kept in the process while the `categories` counter stays where it
 * was: a trigger raises it with every write to `categories` (migration 2026113001), its thread counters included, and
 * every /api request and page render reads the counters first, so no process answers from it after a change. The
 * lists, the categories call and a home page read them up to three times per request. For a request's path only (a
 * job off it has read no counter); shared by requests, so frozen: read, never changed.
 */
export function categoriesOf(ctx: AppContext): Promise<readonly Category[]> {
  let value = kept.get(ctx);
  if (!value) {
    value = new VersionedValue(ctx.versions, 'categories', async () =>
      Object.freeze((await listCategories(ctx.db)).map((c) => Object.freeze(c))),
    );
    kept.set(ctx, value);
  }
  return value.get();
}
