import { createHmac } from 'node:crypto';
import { WEBHOOK_PING_EVENT } from '@luntan/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { BlockedAddressError, safeFetch } from '../../core/safe-fetch.js';
import { inMs, now } from '../../core/time.js';
import { WorkerLoop } from '../../core/worker-loop.js';
import type { DB } from '../../db/schema.js';
import { claimDelivery, dueDeliveryIds, finishAttempt } from './webhooks.repository.js';

/** After the first attempt fails: the waits before the next ones; after the last, the delivery has failed. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 12 * 3600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** How long one attempt's claim lasts: longer than an attempt may take (SEND_TIMEOUT_MS), so a claim never runs out mid-send. */
const LEASE_MS = 2 * 60_000;
const SEND_TIMEOUT_MS = 15_000;
/** How often each process looks for due deliveries (retries, and rows another process left). */
const POLL_MS = 10_000;
const BATCH = 10;

export const USER_AGENT = 'Luntan-Webhooks/1';

/** `sha256=<hex>`: the X-Luntan-Signature of a body. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Sends webhook deliveries: the rows of webhook_deliveries that are due, claimed one at a time with a conditional
 * update (so two processes never send one delivery twice), retried with backoff (RETRY_DELAYS_MS), kept across
 * restarts in the table. One per app; started and stopped with it (app.ts).
 */
export class WebhookDispatcher {
  private readonly abort = new AbortController();
  private readonly loop = new WorkerLoop(() => this.drain(), POLL_MS, 'webhook deliveries: a round failed');

  constructor(
    private readonly db: Kysely<DB>,
    private readonly allowPrivate: boolean,
  ) {}

  start(log: FastifyBaseLogger): void {
    this.loop.start(log);
  }

  /** Looks for due deliveries now (after one was queued), without waiting for it. */
  kick(): void {
    this.loop.kick();
  }

  /** Sends what is due now and answers when that is done (the tests, after moving the clock). */
  runDue(): Promise<void> {
    return this.loop.runDue();
  }

  /** Stops looking, cuts the sends in flight short (they are sent again later) and waits for the round to end. */
  stop(): Promise<void> {
    return this.loop.stop(() => this.abort.abort());
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.loop.isStopped) return;
      const ids = await dueDeliveryIds(this.db, now(), BATCH);
      if (ids.length === 0) return;
      const sent = await Promise.all(ids.map((id) => this.attempt(id)));
      // Every row was claimed by another process: it is theirs; look again next round.
      if (!sent.some(Boolean)) return;
    }
  }

  /** One attempt at one delivery; false when another process claimed it first. */
  private async attempt(id: number): Promise<boolean> {
    const started = now();
    const row = await claimDelivery(this.db, id, started, inMs(LEASE_MS));
    if (!row) return false;
    const t0 = performance.now();
    let responseStatus: number | null = null;
    let error: string | null = null;
    // A switched-off hook still gets the test event the administrator asks for.
    const off = !row.enabled && row.eventName !== WEBHOOK_PING_EVENT;
    if (off) {
      error = 'the webhook is switched off';
    } else {
      try {
        const res = await safeFetch(row.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            'x-luntan-event': row.eventName,
            'x-luntan-delivery': row.uuid,
            'x-luntan-signature': signBody(row.secret, row.payload),
          },
          body: row.payload,
          allowPrivate: this.allowPrivate,
          timeoutMs: SEND_TIMEOUT_MS,
          maxBytes: 4096,
          maxRedirects: 3,
          signal: this.abort.signal,
        });
        responseStatus = res.status;
        if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
      } catch (err) {
        error = describeFailure(err);
      }
    }
    const durationMs = Math.round(performance.now() - t0);
    const at = now();
    if (error === null) {
      await finishAttempt(this.db, row.id, row.attempts, {
        status: 'delivered',
        nextAttemptAt: null,
        responseStatus,
        error: null,
        durationMs,
        updatedAt: at,
      });
      return true;
    }
    if (this.loop.isStopped) {
      // Cut short by the stop: due again at once, in whichever process runs next.
      await finishAttempt(this.db, row.id, row.attempts, {
        status: 'pending',
        nextAttemptAt: at,
        error: 'stopped while sending',
        updatedAt: at,
      });
      return true;
    }
    const last = row.attempts >= MAX_ATTEMPTS || off;
    await finishAttempt(this.db, row.id, row.attempts, {
      status: last ? 'failed' : 'pending',
      nextAttemptAt: last ? null : inMs(RETRY_DELAYS_MS[row.attempts - 1]!),
      responseStatus,
      error: error.slice(0, 500),
      durationMs,
      updatedAt: at,
    });
    this.loop.logger?.info({ delivery: row.uuid, attempts: row.attempts, error }, 'webhook delivery failed');
    return true;
  }
}

function describeFailure(err: unknown): string {
  if (err instanceof BlockedAddressError) return `refused: ${err.message}`;
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
