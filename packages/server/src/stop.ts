import type { FastifyBaseLogger } from 'fastify';
import type { Server } from './server.js';

/**
 * Past the grace for requests in flight, how long the rest of a stop (streams, the signal transport, the database)
 * may take before the process ends anyway, with code 1. A cluster primary waits twice this before killing a worker.
 */
export const STOP_MARGIN_MS = 5000;

/**
 * Resolves with the first SIGINT or SIGTERM. The handlers stay installed, so a second signal does not end the process
 * half-way through its stop: Ctrl-C in a terminal reaches the server twice (from the terminal, and again forwarded by
 * npm). The stop has its own deadline instead. Install it early: a signal during start-up then stops the server once
 * it is up rather than killing it in the middle of a migration.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => resolve(signal));
  });
}

/**
 * A serving process's stop: no new connections, requests in flight finish (until `graceMs`, then their connections
 * are closed), live streams end, then the database is closed and the process exits 0. Every write that was answered
 * was committed before its answer, so nothing acknowledged is lost.
 */
export async function stopServing(server: Server, signal: NodeJS.Signals, graceMs: number): Promise<never> {
  const log: FastifyBaseLogger = server.app.log;
  log.info({ signal, graceMs }, 'stopping: no new connections; requests in flight may finish');
  setTimeout(() => {
    log.error({ graceMs, marginMs: STOP_MARGIN_MS }, 'the stop did not finish in time: exiting anyway');
    process.exit(1);
  }, graceMs + STOP_MARGIN_MS).unref();
  try {
    await server.close({ graceMs });
  } catch (err) {
    log.error({ err }, 'the stop failed');
    process.exit(1);
  }
  log.info('stopped');
  process.exit(0);
}
