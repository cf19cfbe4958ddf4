import type { DeliveredEvent, DomainEventName } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { syncThreadTopics } from './topics.repository.js';

/** The topics' name on the event bus (it keys its delivery rows: never rename it). */
const TOPICS_SUBSCRIBER = 'topics';

/** The events after which a thread's topics or its visibility (what thread_count counts) may have changed. */
const TOPIC_EVENTS = [
  'thread.created',
  'thread.updated',
  'thread.moderated',
  'thread.restored',
  'post.created',
  'post.updated',
  'post.moderated',
  'post.restored',
] as const satisfies readonly DomainEventName[];
type TopicEventName = (typeof TOPIC_EVENTS)[number];

/**
 * thread_topic and the topics' counters hear what happened to threads and posts: no module that writes them calls
 * the topics module for this (they only have the topics made before rendering: topicsNamedIn).
 */
export function subscribeTopics(ctx: Pick<AppContext, 'db' | 'events'>): void {
  // Its writes show on the lists of the event's thread (topic pages): core/page-cache.ts.
  ctx.events.subscribe(
    TOPICS_SUBSCRIBER,
    TOPIC_EVENTS,
    (event: DeliveredEvent<TopicEventName>) =>
      ctx.db.transaction().execute((trx) => syncThreadTopics(trx, event.payload.threadId)),
    { reach: 'event' },
  );
}
