import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { WorkerLoop } from '../../core/worker-loop.js';
import { renderPostsAgain } from '../rerender/index.js';
import { errorText, fetchPreview, PAGE_TIMEOUT_MS, type FetchedPreview } from './fetch-preview.js';
import {
  claimPreview,
  duePreviews,
  finishPreview,
  giveUpPreviews,
  postsOfPreview,
} from './link-previews.repository.js';

/** How often each process looks for previews to fetch (those another process left, or missed kicks). */
const POLL_MS = 15_000;
/** A claim outlasts the page's and the image's fetches. */
const LEASE_MS = 4 * PAGE_TIMEOUT_MS;
const BATCH = 10;

type Ctx = Pick<AppContext, 'db' | 'events' | 'stopWords' | 'guestCache' | 'files' | 'config'>;

/**
 * Fetches the previews of links alone on their line (link_previews rows left pending by the subscriber), one at a
 * time per process, each claimed with a conditional update (a preview is fetched once across processes), then renders
 * the posts that name it again so that they show the card. Beside the event dispatcher, not inside it: a slow site
 * must not hold back notifications. One per app; started and stopped with it (app.ts).
 */
export class LinkPreviewWorker {
  private readonly loop = new WorkerLoop(() => this.drain(), POLL_MS, 'link previews: a round failed');

  constructor(private readonly ctx: Ctx) {}

  start(log: FastifyBaseLogger): void {
    this.loop.start(log);
  }

  /** Looks for previews to fetch now, without waiting. */
  kick(): void {
    this.loop.kick();
  }

  /** Fetches what is due and answers once done (tests). */
  runDue(): Promise<void> {
    return this.loop.runDue();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async drain(): Promise<void> {
    const { db, config, files } = this.ctx;
    await giveUpPreviews(db, new Date().toISOString());
    for (;;) {
      const at = new Date();
      const due = await duePreviews(db, at.toISOString(), BATCH);
      if (due.length === 0 || this.loop.isStopped) return;
      for (const row of due) {
        if (this.loop.isStopped) return;
        const until = new Date(at.getTime() + LEASE_MS).toISOString();
        if (!(await claimPreview(db, row.id, row.attempts, new Date().toISOString(), until))) continue;
        // fetchPreview answers its failures; should anything still throw, the row is finished, not left claimed.
        const result = await fetchPreview(row.url, { allowPrivate: config.allowPrivateFetch, files }).catch(
          (error: unknown): FetchedPreview => ({ ok: false, error: errorText(error) }),
        );
        await finishPreview(db, row.id, result, new Date().toISOString());
        if (result.ok) await renderPostsAgain(this.ctx, await postsOfPreview(db, row.id));
        else this.loop.logger?.info({ url: row.url, error: result.error }, 'link previews: no card for a link');
      }
    }
  }
}
