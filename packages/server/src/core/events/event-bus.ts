import { AsyncLocalStorage } from 'node:async_hooks';
import { DOMAIN_EVENTS, type DeliveredEvent, type DomainEventName, type DomainEventPayload } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineTopic, type SignalBus } from '../signals.js';
import {
  claimDelivery,
  finishDelivery,
  insertDeliveries,
  insertEvent,
  postponeDelivery,
  pruneDelivered,
  readyDeliveries,
  type ReadyDelivery,
} from './events.repository.js';

/*
 * Domain events through an outbox. A module announces what happened with `emit(trx, name, payload)` in the
 * transaction of its change: the event and one delivery row per subscriber of that name are written with the change,
 * or not at all. After commit a dispatcher hands each delivery to its subscriber: woken by the end of every write
 * request (app.ts), by the other processes through the signal bus, and by a slow poll for due events and retries.
 * Each delivery is claimed with a conditional update, so among processes on one database one delivers it; a claim
 * lasts CLAIM_MS, after which a delivery whose process died is taken up again. A subscriber that throws is logged and
 * tried again later (doubling waits); the write it followed stands. Subscribers must be registered before the app
 * serves (each process registers the same ones): an event reaches the subscribers known when it was emitted.
 */

export type EventHandler<N extends DomainEventName = DomainEventName> = (event: DeliveredEvent<N>) => Promise<void>;

/**
 * Where what a subscriber writes on hearing an event may show on the forum's pages (core/page-cache.ts): `'event'`,
 * only where the event's own change shows (its thread's pages and the lists: a search index, topic counters, a red
 * packet of that thread, or nothing a page shows: notifications, webhooks' deliveries, plugins' own stores);
 * `'site'` (the default), anywhere.
 */
export type SubscriberReach = 'event' | 'site';

export interface SubscribeOptions {
  reach?: SubscriberReach;
}

interface Subscription {
  names: ReadonlySet<string> | '*';
  handler: EventHandler;
  reach: SubscriberReach;
}

/** An event as it was emitted: its name and checked payload. */
export interface EmittedEvent {
  name: DomainEventName;
  payload: unknown;
}

/** An event a pass of the dispatcher delivered, and where what its subscriber wrote may show. */
export interface DeliveredChange extends EmittedEvent {
  reach: SubscriberReach;
}

interface Log {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** How long a claimed delivery is one process's before another may take it up (its process may have died). */
export const CLAIM_MS = 60_000;
/** The poll for due events and retries (and for anything a missed wake-up left). */
export const POLL_MS = 5_000;
/** After the n-th failed attempt the next waits 2^(n-1) seconds, at most an hour. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 3_600_000;
/** A delivery that failed this many times is given up (logged as an error, kept with its last error). */
export const MAX_ATTEMPTS = 12;
/** How many deliveries one pass takes on. */
const BATCH = 50;
/** Delivered events are kept this long (an hour's polls prune them). */
const KEEP_MS = 7 * 24 * 3600_000;

/** "There are events to deliver": heard by the other processes' dispatchers. */
const EVENTS_TOPIC = defineTopic<Record<string, never>>('events');

export const backoffMs = (attempts: number): number =>
  Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);

export interface EmitOptions {
  /** Deliver no earlier than this (ISO-8601 UTC): a due event. */
  dueAt?: string;
}

export class EventBus {
  private readonly subscriptions = new Map<string, Subscription>();
  private log: Log | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<boolean> | null = null;
  /** Another wake-up arrived during a pass: run one more after it. */
  private again = false;
  private stopped = false;
  private paused = false;
  private polls = 0;
  private unsubscribeSignals: (() => void) | null = null;
  /** Told after a pass delivered something: what subscribers wrote may show on kept pages (core/page-cache.ts). */
  private readonly afterDeliveries: ((delivered: DeliveredChange[]) => Promise<void>)[] = [];
  /** The events the current write request emitted so far (recordWrites), found through its async context. */
  private readonly recording = new AsyncLocalStorage<EmittedEvent[]>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly signals: SignalBus,
    /** This process's name in `claimed_by`. */
    private readonly origin: string,
  ) {}

  /**
   * Hears `names` (or every event) as `subscriberId`, a stable name (it keys the delivery rows across restarts and
   * processes). The handler may run again for an event it saw if it threw or its process died mid-way; the event's
   * id is a key for making it idempotent.
   */
  subscribe<N extends DomainEventName>(
    subscriberId: string,
    names: readonly N[] | '*',
    handler: EventHandler<N>,
    options: SubscribeOptions = {},
  ): () => void {
    if (subscriberId.length === 0 || subscriberId.length > 64) throw new Error(`bad subscriber id: ${subscriberId}`);
    if (this.subscriptions.has(subscriberId)) throw new Error(`subscriber ${subscriberId} exists already`);
    for (const name of names === '*' ? [] : names) {
      if (!(name in DOMAIN_EVENTS)) throw new Error(`unknown event: ${name}`);
    }
    this.subscriptions.set(subscriberId, {
      names: names === '*' ? '*' : new Set(names),
      handler: handler as EventHandler,
      reach: options.reach ?? 'site',
    });
    return () => this.subscriptions.delete(subscriberId);
  }

  /** Runs `task` after every pass that delivered something, with what it delivered (never fails the pass). */
  afterDelivery(task: (delivered: DeliveredChange[]) => Promise<void>): void {
    this.afterDeliveries.push(task);
  }

  /**
   * Notes in `request.emittedEvents` every event a write request under `scope` emits (the guest cache's write hook
   * reads it: core/guest-cache.ts, core/page-cache.ts). Set after the body was read: the stream's events that end it
   * run outside the request's async context, what follows from this hook on runs inside. A read emits nothing and
   * pays nothing.
   */
  recordWrites(scope: FastifyInstance): void {
    scope.addHook('preValidation', (request, _reply, done) => {
      if (request.method === 'GET' || request.method === 'HEAD') {
        done();
        return;
      }
      const emitted: EmittedEvent[] = [];
      request.emittedEvents = emitted;
      this.recording.run(emitted, done);
    });
  }

  /** Writes the event in the caller's transaction (delivered after it commits; nothing if it rolls back). */
  async emit<N extends DomainEventName>(
    trx: Kysely<DB>,
    name: N,
    payload: DomainEventPayload<N>,
    options: EmitOptions = {},
  ): Promise<void> {
    const checked = DOMAIN_EVENTS[name].parse(payload);
    const at = new Date().toISOString();
    const dueAt = options.dueAt ?? at;
    this.recording.getStore()?.push({ name, payload: checked });
    const eventId = await insertEvent(trx, { name, payload: JSON.stringify(checked), createdAt: at, dueAt });
    const subscribers = [...this.subscriptions]
      .filter(([, s]) => s.names === '*' || s.names.has(name))
      .map(([id]) => id);
    await insertDeliveries(trx, eventId, subscribers, dueAt);
  }

  /** Starts the poll and listens to the other processes (server.ts, once the app is built). */
  start(log: Log, pollMs = POLL_MS): void {
    this.log = log;
    this.unsubscribeSignals = this.signals.subscribe(EVENTS_TOPIC, () => this.wake(false));
    this.timer = setInterval(() => {
      this.polls += 1;
      if (this.polls % Math.max(1, Math.round(3_600_000 / pollMs)) === 0) void this.prune();
      this.wake(false);
    }, pollMs);
    this.timer.unref();
    this.wake(false);
  }

  /**
   * There may be events to deliver (a write request ended): runs a pass in the background, and with `tellOthers`
   * wakes the other processes' dispatchers too.
   */
  wake(tellOthers = true): void {
    if (this.stopped || this.paused) return;
    if (tellOthers) void this.signals.publish(EVENTS_TOPIC, {});
    if (this.pass) {
      this.again = true;
      return;
    }
    // A pass woken by a request's end is no part of that request's writes.
    this.pass = this.recording
      .exit(() => this.run())
      .finally(() => {
        this.pass = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake(false);
        }
      });
  }

  /**
   * Delivers everything due now and waits until it is done: what tests await after a write (the harness does), and
   * what a script may await before it exits. Failed deliveries wait for their next attempt and are not waited for.
   */
  async drain(): Promise<void> {
    for (;;) {
      // A pass that ends may start the next (a wake-up arrived during it): wait for each, never run beside one, or
      // this drain could find the deliveries the other pass claimed and return while it still delivers them.
      while (this.pass) await this.pass.catch(() => undefined);
      if (this.stopped) return;
      // This pass answers the wake-ups that arrived until now.
      this.again = false;
      const pass = this.recording.exit(() => this.run());
      this.pass = pass;
      let didWork: boolean;
      try {
        didWork = await pass;
      } finally {
        this.pass = null;
      }
      // A wake-up during this pass may be for a write it did not see: one more pass, as wake() would run.
      if (!didWork && !this.again) return;
    }
  }

  /** Takes no more work until resumed (tests: a process that stops between commit and delivery). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** Stops the poll and waits for the pass under way (app close). Claims it did not finish expire on their own. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribeSignals?.();
    await this.pass?.catch(() => undefined);
  }

  /** One pass over the ready deliveries. Answers whether it found any (delivered or failed). Never throws. */
  private async run(): Promise<boolean> {
    let ready: ReadyDelivery[];
    try {
      ready = await readyDeliveries(this.db, new Date().toISOString(), [...this.subscriptions.keys()], BATCH);
    } catch (err) {
      this.log?.warn({ err }, 'events: the deliveries could not be read (tried again at the next wake-up)');
      return false;
    }
    const delivered: DeliveredChange[] = [];
    for (const row of ready) {
      if (this.stopped || this.paused) break;
      const sub = this.subscriptions.get(row.subscriber);
      if (!sub) continue;
      // Counted whether it succeeded or not: a subscriber that failed may have written part of its work.
      delivered.push({ name: row.name as DomainEventName, payload: parsedPayload(row.payload), reach: sub.reach });
      await this.deliver(row, sub);
    }
    if (delivered.length > 0) {
      for (const task of this.afterDeliveries) {
        await task(delivered).catch((err: unknown) => this.log?.warn({ err }, 'events: a task after delivery failed'));
      }
    }
    return delivered.length > 0;
  }

  private async deliver(row: ReadyDelivery, sub: Subscription): Promise<void> {
    const start = new Date();
    const until = new Date(start.getTime() + CLAIM_MS).toISOString();
    try {
      if (!(await claimDelivery(this.db, row, start.toISOString(), until, this.origin))) return;
    } catch (err) {
      this.log?.warn({ err, eventId: row.eventId }, 'events: a delivery could not be claimed');
      return;
    }
    const attempt = row.attempts + 1;
    try {
      // Written by emit() from the checked payload of this name.
      const event = {
        id: row.eventId,
        name: row.name,
        payload: JSON.parse(row.payload) as unknown,
        at: row.dueAt,
        attempt,
      } as DeliveredEvent;
      await sub.handler(event);
      await finishDelivery(this.db, row, new Date().toISOString(), null);
    } catch (err) {
      const giveUp = attempt >= MAX_ATTEMPTS;
      const detail = { err, event: row.name, eventId: row.eventId, subscriber: row.subscriber, attempt };
      if (giveUp) this.log?.error(detail, 'events: a subscriber failed for the last time: given up');
      else this.log?.error(detail, 'events: a subscriber failed (tried again later)');
      const message = err instanceof Error ? err.message : String(err);
      try {
        if (giveUp) await finishDelivery(this.db, row, new Date().toISOString(), message);
        else {
          const next = new Date(Date.now() + backoffMs(attempt)).toISOString();
          await postponeDelivery(this.db, row, next, message);
        }
      } catch (writeErr) {
        // The claim expires and the delivery is tried again then.
        this.log?.warn({ err: writeErr, eventId: row.eventId }, 'events: a failure could not be recorded');
      }
    }
  }

  private async prune(): Promise<void> {
    try {
      await pruneDelivered(this.db, new Date(Date.now() - KEEP_MS).toISOString());
    } catch (err) {
      this.log?.warn({ err }, 'events: old events could not be pruned');
    }
  }
}

/** A stored payload, or null when it cannot be read (what hears it then treats the event as touching anything). */
function parsedPayload(payload: string): unknown {
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return null;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The events this write request emitted (EventBus.recordWrites); unset for reads. */
    emittedEvents?: EmittedEvent[];
  }
}
