import type { AppContext } from '../../context.js';
import { loneLinkUrls } from '../content/index.js';
import { notePostLinks } from './link-previews.repository.js';

/** The link previews' name on the event bus (it keys its delivery rows: never rename it). */
const LINK_PREVIEWS_SUBSCRIBER = 'link-previews';

/**
 * Hears posts written and edited, and notes the links alone on their line whose previews are not known yet; the
 * worker (link-preview-worker.ts) fetches them outside the event dispatcher. A post whose links are all known shows
 * their cards already (the content module renders them).
 */
export function subscribeLinkPreviews(ctx: Pick<AppContext, 'db' | 'events'>, worker: { kick(): void }): void {
  ctx.events.subscribe(
    LINK_PREVIEWS_SUBSCRIBER,
    ['post.created', 'post.updated', 'thread.created', 'thread.updated'],
    async (event) => {
      const post =
        'postId' in event.payload
          ? await ctx.db
              .selectFrom('posts')
              .select(['id', 'contentHtml'])
              .where('id', '=', event.payload.postId)
              .executeTakeFirst()
          : await ctx.db
              .selectFrom('posts')
              .select(['id', 'contentHtml'])
              .where('threadId', '=', event.payload.threadId)
              .where('isFirst', '=', 1)
              .executeTakeFirst();
      if (!post) return;
      const urls = loneLinkUrls(post.contentHtml);
      if (urls.length === 0) return;
      if ((await notePostLinks(ctx.db, post.id, urls, new Date().toISOString())) > 0) worker.kick();
    },
    // What it writes (its own tables) shows nowhere until the worker renders the posts again (post.rerendered).
    { reach: 'event' },
  );
}
