import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { relaySignalsBetweenWorkers } from './core/signal-transport.js';
import { openDatabase } from './db/database.js';
import type { SeedResult } from './seed.js';
import { prepareDatabase } from './server.js';
import { STOP_MARGIN_MS } from './stop.js';

/** A worker that lived at least this long before dying is started again soon; a younger one waits longer. */
const HEALTHY_LIFETIME_MS = 30_000;
/** The wait before starting again a worker that had lived long (a stop of the whole cluster may be under way). */
const RESTART_DELAY_MS = 250;
/** The longest wait before a worker that keeps dying young is started again. */
const MAX_RESTART_DELAY_MS = 30_000;

interface Log {
  info(msg: string): void;
  error(msg: string): void;
}

/**
 * WORKERS>1: this process is node:cluster's primary. It prepares the database once (migrations, seed), forks the
 * workers, which build the app and listen on the same port (the primary hands out the connections), relays signals
 * between them (core/signal-transport.ts), starts again a worker that dies unexpectedly, and once `stopAsked`
 * resolves (SIGINT/SIGTERM) sends every worker SIGTERM, waits for them to stop gracefully (stop.ts) and exits 0
 * (1 if one had to be killed). It serves nothing itself and keeps no database connection open.
 *
 * Resolves once every worker listens, with what the seed did (for the banner). A worker that dies before all are up
 * (the port is taken, the database refuses...) stops the start: the primary stops the others and rejects.
 */
export async function runClusterPrimary(
  config: Config,
  log: Log,
  stopAsked: Promise<NodeJS.Signals>,
): Promise<SeedResult> {
  const database = await openDatabase(config);
  let seeded: SeedResult;
  try {
    seeded = await prepareDatabase(database, config);
  } finally {
    await database.destroy();
  }

  relaySignalsBetweenWorkers();
  let stopping = false;
  let started = false;
  /** Per slot (1..N): consecutive early deaths, for the restart delay. */
  const earlyDeaths = new Map<number, number>();
  const slotOf = new Map<Worker, number>();
  const bornAt = new Map<Worker, number>();

  const fork = (slot: number) => {
    const worker = cluster.fork();
    slotOf.set(worker, slot);
    bornAt.set(worker, Date.now());
    return worker;
  };

  /** Resolves once every worker has exited: true if all stopped by themselves, false if one had to be killed. */
  const stopAll = async (signal: NodeJS.Signals): Promise<boolean> => {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const exited = workers.map(
      (w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve()))),
    );
    for (const worker of workers) if (!worker.isDead()) worker.process.kill(signal);
    // A worker ends itself at its grace plus the margin; past twice the margin it is stuck.
    let killed = false;
    const timer = setTimeout(
      () => {
        for (const worker of workers) {
          if (worker.isDead()) continue;
          log.error(
            `Worker ${slotOf.get(worker) ?? '?'} (pid ${worker.process.pid}) did not stop in time: killing it.`,
          );
          worker.process.kill('SIGKILL');
          killed = true;
        }
      },
      config.stopGraceMs + 2 * STOP_MARGIN_MS,
    );
    await Promise.all(exited);
    clearTimeout(timer);
    return !killed;
  };

  const ready = new Promise<void>((resolve, reject) => {
    let listening = 0;
    cluster.on('listening', () => {
      listening += 1;
      if (!started && listening === config.workers) {
        started = true;
        resolve();
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      const slot = slotOf.get(worker) ?? 0;
      const lived = Date.now() - (bornAt.get(worker) ?? Date.now());
      slotOf.delete(worker);
      bornAt.delete(worker);
      if (stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!started) {
        stopping = true;
        void stopAll('SIGTERM').then(() => reject(new Error(`worker ${slot} exited while starting (${how})`)));
        return;
      }
      // Not in a tight loop: a worker that keeps dying young waits 1 s, 2 s, 4 s... up to 30 s before the next try.
      const deaths = lived < HEALTHY_LIFETIME_MS ? (earlyDeaths.get(slot) ?? 0) + 1 : 0;
      earlyDeaths.set(slot, deaths);
      const delay = deaths === 0 ? RESTART_DELAY_MS : Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (deaths - 1));
      log.error(
        `Worker ${slot} (pid ${worker.process.pid}) exited unexpectedly (${how}); starting it again in ${delay} ms.`,
      );
      setTimeout(() => {
        if (!stopping) fork(slot);
      }, delay).unref();
    });
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`Stopping ${config.workers} workers (${signal})...`);
    void stopAll('SIGTERM').then((clean) => process.exit(clean ? 0 : 1));
  };
  void stopAsked.then(stop);

  for (let slot = 1; slot <= config.workers; slot += 1) fork(slot);
  await ready;
  return seeded;
}
