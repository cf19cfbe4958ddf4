import cluster, { type Worker } from 'node:cluster';
import type pg from 'pg';
import { pgDriver } from '../db/pg-driver.js';
import { redisClass } from './redis-client.js';
import type { Config } from '../config.js';
import { forumKey } from './forum-key.js';
import type { SignalBus } from './signals.js';

type TransportConfig = Pick<Config, 'redisUrl' | 'databaseUrl' | 'databaseSchema' | 'dataDir'>;
interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Which way signals leave this process. */
export type TransportKind = 'redis' | 'postgres' | 'cluster' | 'none';

export function transportKind(config: Pick<Config, 'redisUrl' | 'databaseUrl'>): TransportKind {
  if (config.redisUrl) return 'redis';
  if (config.databaseUrl) return 'postgres';
  return cluster.isWorker ? 'cluster' : 'none';
}

/**
 * Connects the bus to the other app processes of the same forum: Redis pub/sub when REDIS_URL is set, else
 * PostgreSQL LISTEN/NOTIFY on PostgreSQL, else (SQLite) node:cluster's IPC channel through the cluster primary when
 * this process is a worker, else nothing (one SQLite process has no one to tell). Redis and PostgreSQL channels are
 * named after the forum's database (and schema), so forums sharing a server do not hear each other.
 * Answers the function that disconnects.
 */
export async function connectSignalTransport(
  bus: SignalBus,
  config: TransportConfig,
  log: Log,
): Promise<() => Promise<void>> {
  const key = forumKey(config);
  const kind = transportKind(config);

  if (kind === 'redis') {
    const channel = `luntan:signals:${key}`;
    const options = { maxRetriesPerRequest: 1, enableOfflineQueue: false } as const;
    const Redis = redisClass();
    const publisher = new Redis(config.redisUrl!, options);
    const subscriber = new Redis(config.redisUrl!, { ...options, enableOfflineQueue: true });
    for (const client of [publisher, subscriber]) client.on('error', () => undefined);
    subscriber.on('message', (_channel, message: string) => bus.receive(message));
    await subscriber.subscribe(channel);
    bus.useTransport(async (message) => {
      await publisher.publish(channel, message);
    }, log);
    return async () => {
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    };
  }

  if (kind === 'postgres') {
    const channel = `luntan_signals_${key}`;
    const { Pool, Client } = pgDriver();
    const pool = new Pool({ connectionString: config.databaseUrl, max: 2 });
    pool.on('error', () => undefined);
    let listener: pg.Client | null = null;
    let closed = false;
    const listen = async (): Promise<void> => {
      const client = new Client({ connectionString: config.databaseUrl });
      client.on('notification', (message) => {
        if (message.channel === channel && message.payload) bus.receive(message.payload);
      });
      // A lost connection is made again: meanwhile other processes' signals are missed (see core/signals.ts).
      client.on('error', () => undefined);
      client.on('end', () => {
        if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000).unref();
      });
      await client.connect();
      await client.query(`listen "${channel}"`);
      listener = client;
    };
    await listen();
    bus.useTransport(async (message) => {
      await pool.query('select pg_notify($1, $2)', [channel, message]);
    }, log);
    return async () => {
      closed = true;
      await Promise.allSettled([listener?.end(), pool.end()]);
    };
  }

  if (kind === 'cluster') {
    const onMessage = (message: unknown) => {
      if (isSignalMessage(message)) bus.receive(message.luntanSignal);
    };
    process.on('message', onMessage);
    bus.useTransport(
      (message) =>
        new Promise<void>((resolve, reject) => {
          if (!process.send || !process.connected) {
            reject(new Error('the IPC channel to the cluster primary is closed'));
            return;
          }
          process.send({ luntanSignal: message } satisfies SignalMessage, undefined, {}, (err) =>
            err ? reject(err) : resolve(),
          );
        }),
      log,
    );
    return async () => {
      process.off('message', onMessage);
    };
  }

  return async () => undefined;
}

/** A signal on node:cluster's IPC channel (the envelope as JSON). */
interface SignalMessage {
  luntanSignal: string;
}

function isSignalMessage(message: unknown): message is SignalMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as Partial<SignalMessage>).luntanSignal === 'string'
  );
}

/**
 * The cluster primary's part: a signal from one worker goes to every other worker (the sender has delivered it
 * itself). Node's own IPC channels, no broker; the primary reads nothing but the tag.
 */
export function relaySignalsBetweenWorkers(): void {
  cluster.on('message', (sender: Worker, message: unknown) => {
    if (!isSignalMessage(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== sender && worker.isConnected()) {
        // A worker that is just going away may refuse it: it has no pages left to tell.
        worker.send(message, undefined, () => undefined);
      }
    }
  });
}
