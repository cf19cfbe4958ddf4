import type { DeliveredEvent, DomainEventName } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { syncReplyIndex } from './reply-index.repository.js';
import { syncThreadIndex } from './search.repository.js';

/** The search indexing's name on the event bus (it keys its delivery rows: never rename it). */
export const SEARCH_SUBSCRIBER = 'search';

/** The events after which a thread's or a post's index entry may have to change. */
const INDEXED_EVENTS = [
  'thread.created',
  'thread.updated',
  'thread.moderated',
  'thread.restored',
  'post.created',
  'post.updated',
  'post.moderated',
  'post.restored',
  'post.rerendered',
] as const satisfies readonly DomainEventName[];
type IndexedEventName = (typeof INDEXED_EVENTS)[number];

/**
 * The search indexes (thread_search, post_search) hear what happened to threads and posts and bring the entries in
 * line with the rows as they now are: no module that writes threads or posts calls search. Each sync reads the
 * current state, so a redelivered or late event does no harm.
 */
export function subscribeSearchIndexing(ctx: Pick<AppContext, 'db' | 'dialect' | 'events'>): void {
  // Its writes show on the search page only, for the event's thread (core/page-cache.ts).
  ctx.events.subscribe(SEARCH_SUBSCRIBER, INDEXED_EVENTS, (event) => reindex(ctx, event), { reach: 'event' });
}

async function reindex(
  ctx: Pick<AppContext, 'db' | 'dialect'>,
  event: DeliveredEvent<IndexedEventName>,
): Promise<void> {
  // One transaction: an entry is removed and written again together (two deliveries at once find one or the other).
  await ctx.db.transaction().execute(async (trx) => {
    if (event.name.startsWith('thread.')) {
      await syncThreadIndex(trx, ctx.dialect, event.payload.threadId);
      return;
    }
    if (!('postId' in event.payload)) return;
    const { postId } = event.payload;
    await syncReplyIndex(trx, ctx.dialect, postId);
    // A first post is its thread's body: its thread's entry follows it.
    const post = await trx.selectFrom('posts').select(['isFirst']).where('id', '=', postId).executeTakeFirst();
    if (post?.isFirst === 1) await syncThreadIndex(trx, ctx.dialect, event.payload.threadId);
  });
}
