import type { FastifyBaseLogger } from 'fastify';

/**
 * Work beside the requests, done in rounds: a round runs when kicked (after something was queued) and every `pollMs`
 * (what another process left, retries that came due), one round at a time; a kick during a round runs one more after
 * it. The webhook deliveries and the link previews use it. Ground floor: imports no feature module.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private log: FastifyBaseLogger | undefined;

  constructor(
    /** One round: does what is due. It may look at `stopped` between items. */
    private readonly round: () => Promise<void>,
    private readonly pollMs: number,
    /** Logged when a round throws (the next round tries again). */
    private readonly failure: string,
  ) {}

  /** Whether stop() was called: a round ends early. */
  get isStopped(): boolean {
    return this.stopped;
  }

  get logger(): FastifyBaseLogger | undefined {
    return this.log;
  }

  start(log: FastifyBaseLogger): void {
    this.log = log;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
  }

  /** Runs a round now, without waiting for it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((err: unknown) => this.log?.error({ err }, this.failure))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Does what is due now and answers when that is done (tests). */
  async runDue(): Promise<void> {
    await this.running;
    this.kick();
    await this.running;
  }

  /** Stops kicking and polling; `beforeWait` runs before waiting for the round under way (to cut it short). */
  async stop(beforeWait?: () => void): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    beforeWait?.();
    await this.running;
  }
}
