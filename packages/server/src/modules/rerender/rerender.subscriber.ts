import type { AppContext } from '../../context.js';
import { rerenderBatch, searchKey } from './rerender.service.js';

/** The re-rendering's name on the event bus (it keys its delivery rows: never rename it). */
const RERENDER_SUBSCRIBER = 'rerender';

/**
 * Hears the rule changes that reach into stored post HTML and renders the posts they touch again, a batch per
 * delivery (rerender.service.ts): a rename or a stop-word change only announces the first batch, in its own
 * transaction, and each batch announces the next.
 */
export function subscribeRerendering(ctx: Pick<AppContext, 'db' | 'events' | 'stopWords' | 'guestCache'>): void {
  ctx.events.subscribe(
    RERENDER_SUBSCRIBER,
    ['user.renamed', 'stop_words.changed', 'post.rerender_due'],
    async (event) => {
      switch (event.name) {
        case 'post.rerender_due':
          return rerenderBatch(ctx, event.payload);
        case 'user.renamed': {
          const { userId, before, after } = event.payload;
          if (before.username === after.username && before.nickname === after.nickname) return;
          return rerenderBatch(ctx, {
            userId,
            oldUsername: before.username,
            newUsername: after.username,
            words: [],
            afterPostId: 0,
          });
        }
        case 'stop_words.changed': {
          const words = [...new Set(event.payload.replaced.map(searchKey))].filter((w) => w !== '');
          if (words.length === 0) return;
          return rerenderBatch(ctx, { userId: null, oldUsername: '', newUsername: '', words, afterPostId: 0 });
        }
      }
    },
  );
}
