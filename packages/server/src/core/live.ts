import { EventEmitter } from 'node:events';

/** What a signed-in page is told at once (the unread counters and lists are then read again through the API). */
export interface LiveEvent {
  /** notification: a new notice; dialogMessage: a new private message; unread: the counters changed. */
  kind: 'notification' | 'dialogMessage' | 'dialogRead' | 'unread' | 'logout';
  [detail: string]: unknown;
}

type Listener = (event: LiveEvent) => void;

/**
 * Events for one user, delivered to every page that user has open, in whichever process holds the page's stream.
 * This process's pages are reached directly; other processes through the configured transport (see live-transport).
 */
export class LiveHub {
  private readonly local = new EventEmitter();
  private transport: ((userId: number, event: LiveEvent) => Promise<void>) | null = null;

  constructor() {
    this.local.setMaxListeners(0);
  }

  /** Routes publications through another transport (PostgreSQL NOTIFY, Redis), which calls `deliver` back. */
  useTransport(send: (userId: number, event: LiveEvent) => Promise<void>): void {
    this.transport = send;
  }

  /** Tells every open page of `userId`, in every process. Never throws: live delivery is best effort. */
  async publish(userId: number, event: LiveEvent): Promise<void> {
    if (!this.transport) {
      this.deliver(userId, event);
      return;
    }
    try {
      // The transport delivers to this process's pages at once, then tells the others.
      await this.transport(userId, event);
    } catch {
      // The transport is down: the other processes' pages catch up with the 60-second poll.
    }
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
