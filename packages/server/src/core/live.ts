import type { LiveEventKind } from '@luntan/shared';
import { EventEmitter } from 'node:events';
import { defineTopic, type SignalBus } from './signals.js';

/** What a signed-in page is told at once (the unread counters and lists are then read again through the API). */
export interface LiveEvent {
  /** notification: a new notice; dialogMessage: a new private message; unread: the counters changed. */
  kind: LiveEventKind;
  [detail: string]: unknown;
}

type Listener = (event: LiveEvent) => void;

/** A live event for one user, as it crosses processes. */
const LIVE = defineTopic<{ u: number; e: LiveEvent }>('live');

/**
 * Events for one user, delivered to every page that user has open, in whichever process holds the page's stream.
 * This process's pages are reached directly; other processes through the signal bus (core/signals.ts).
 */
export class LiveHub {
  private readonly local = new EventEmitter();

  constructor(private readonly signals: SignalBus) {
    this.local.setMaxListeners(0);
    signals.subscribe(LIVE, ({ u, e }) => this.deliver(u, e));
  }

  /** Tells every open page of `userId`, in every process. Never throws: live delivery is best effort. */
  async publish(userId: number, event: LiveEvent): Promise<void> {
    // The bus delivers to this process's pages at once, then tells the others; when it cannot, their pages catch
    // up with the 60-second poll of the unread counters.
    await this.signals.publish(LIVE, { u: userId, e: event });
  }

  /** Hands an event to this process's pages of `userId`. */
  deliver(userId: number, event: LiveEvent): void {
    this.local.emit(String(userId), event);
  }

  subscribe(userId: number, listener: Listener): () => void {
    this.local.on(String(userId), listener);
    return () => this.local.off(String(userId), listener);
  }

  listenerCount(userId: number): number {
    return this.local.listenerCount(String(userId));
  }
}
