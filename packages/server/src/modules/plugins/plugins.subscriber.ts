import { PUBLIC_EVENT_NAMES } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { pluginRuntime } from './plugin-runtime.js';
import { enabledServerPlugins } from './plugins.service.js';

/** How long one plugin's handlers may take for one event before it counts as failed (and is tried again later). */
const HANDLER_TIMEOUT_MS = 10_000;
/** How many events with a failed plugin this process remembers the finished plugins of (for their retries). */
const REMEMBERED = 1000;

/**
 * Plugins hear domain events through `ctx.events.on(...)` in their server module (@luntan/plugin-sdk/server): one
 * subscriber, `plugins`, hears every public event once across processes and calls the handlers of each enabled
 * plugin, loading its server module when this process has not yet. A plugin whose handler throws or takes too long
 * is logged; the event is tried again later for the plugins that failed, not for those that finished (remembered by
 * this process: after a restart a retry may reach a finished plugin again, which `event.id` lets it notice).
 */
export function subscribePlugins(ctx: AppContext): void {
  const finishedBy = new Map<number, Set<string>>();
  ctx.events.subscribe(
    'plugins',
    PUBLIC_EVENT_NAMES,
    async (event) => {
      const appids = await enabledServerPlugins(ctx.db);
      const finished = finishedBy.get(event.id) ?? new Set<string>();
      const failed: string[] = [];
      for (const appid of appids) {
        if (finished.has(appid)) continue;
        try {
          const handlers = await pluginRuntime(ctx).handlersFor(appid, event.name);
          for (const handler of handlers) await withTimeout(Promise.resolve(handler(event)));
          finished.add(appid);
        } catch (err) {
          failed.push(appid);
          ctx.log
            .child({ plugin: appid })
            .error({ err, event: event.name, eventId: event.id }, 'plugin: an event handler failed');
        }
      }
      if (failed.length === 0) {
        finishedBy.delete(event.id);
        return;
      }
      finishedBy.set(event.id, finished);
      if (finishedBy.size > REMEMBERED) finishedBy.delete(finishedBy.keys().next().value!);
      throw new Error(`plugins failed on ${event.name}: ${failed.join(', ')}`);
    },
    // Plugins' handlers write their own stores, which the server's pages never show (core/page-cache.ts).
    { reach: 'event' },
  );
}

async function withTimeout(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('the handler took too long')), HANDLER_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
