/**
 * A small signal bus between the app processes of one forum: live events for members' pages, "the guests' answers
 * are stale", and whatever else a per-process cache must hear from the others (a topic such as `viewers` carrying a
 * version number). It carries notices, not work: a signal that is lost (a transport down) costs freshness, never
 * data, so every user of it must stay correct, if later, without it.
 *
 * `publish` tells this process's subscribers at once (before it returns a promise), then the other processes
 * through the transport (core/signal-transport.ts: Redis pub/sub, PostgreSQL NOTIFY or node:cluster's IPC channel);
 * a process never hears its own publications back from the transport. Payloads cross processes as JSON.
 */

/** A named kind of signal and the shape of its payload. */
export interface Topic<T> {
  readonly name: string;
  /** Only carries the payload's type. */
  readonly payload?: T;
}

export function defineTopic<T>(name: string): Topic<T> {
  return { name };
}

/** What the transport sends to the other processes: topic, payload and the sending process. */
export interface SignalEnvelope {
  t: string;
  p: unknown;
  o: string;
}

type Handler = (payload: unknown) => void;

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export class SignalBus {
  private readonly handlers = new Map<string, Set<Handler>>();
  private send: ((envelope: string) => Promise<void>) | null = null;
  private log: Log | null = null;
  /** Set while the transport fails, so an outage is logged once and not on every write. */
  private failing = false;

  /** This process's name on the transport; what it hears under this name is its own and is dropped. */
  constructor(readonly origin: string) {}

  /** Sends publications to the other processes too (set by connectSignalTransport). */
  useTransport(send: (envelope: string) => Promise<void>, log: Log): void {
    this.send = send;
    this.log = log;
  }

  get connected(): boolean {
    return this.send !== null;
  }

  /** Tells this process's subscribers at once, then the others. Never throws: signals are best effort. */
  async publish<T>(topic: Topic<T>, payload: T): Promise<void> {
    this.deliver(topic.name, payload);
    if (!this.send) return;
    try {
      await this.send(JSON.stringify({ t: topic.name, p: payload, o: this.origin } satisfies SignalEnvelope));
      if (this.failing) {
        this.failing = false;
        this.log?.info({}, 'signals: the transport works again');
      }
    } catch (err) {
      if (!this.failing) {
        this.failing = true;
        this.log?.warn({ err }, 'signals: the other processes could not be told (they catch up later)');
      }
    }
  }

  subscribe<T>(topic: Topic<T>, handler: (payload: T) => void): () => void {
    let set = this.handlers.get(topic.name);
    if (!set) this.handlers.set(topic.name, (set = new Set()));
    const h = handler as Handler;
    set.add(h);
    return () => set.delete(h);
  }

  /** A message from the transport: delivered here unless this process sent it. */
  receive(message: string): void {
    let envelope: SignalEnvelope;
    try {
      envelope = JSON.parse(message) as SignalEnvelope;
    } catch (err) {
      this.log?.warn({ err }, 'signals: an unreadable message was passed over');
      return;
    }
    if (envelope.o !== this.origin && typeof envelope.t === 'string') this.deliver(envelope.t, envelope.p);
  }

  private deliver(topic: string, payload: unknown): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (err) {
        this.log?.warn({ err, topic }, 'signals: a subscriber failed');
      }
    }
  }
}
