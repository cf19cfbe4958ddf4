import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Config } from '../config.js';
import { forumKey } from './forum-key.js';
import type { LiveEvent, LiveHub } from './live.js';

/** What crosses processes: the user, the event, and which process sent it (it has delivered it already). */
interface Envelope {
  u: number;
  e: LiveEvent;
  o: string;
}

/**
 * Connects a hub to the other app processes of the same forum: Redis pub/sub when REDIS_URL is set, else PostgreSQL
 * LISTEN/NOTIFY on PostgreSQL, else nothing (one SQLite process has no one to tell). The channel is named after the
 * forum's database (and schema), so forums sharing a Redis or a PostgreSQL server do not hear each other.
 * Answers the function that disconnects.
 */
export async function connectLiveTransport(
  hub: LiveHub,
  config: Pick<Config, 'redisUrl' | 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
  log: { warn: (obj: object, msg: string) => void },
): Promise<() => Promise<void>> {
  const origin = randomUUID();
  const key = forumKey(config);
  const receive = (payload: string) => {
    try {
      const { u, e, o } = JSON.parse(payload) as Envelope;
      if (o !== origin) hub.deliver(u, e);
    } catch (err) {
      log.warn({ err }, 'live: an unreadable message was passed over');
    }
  };
  const encode = (userId: number, event: LiveEvent) => JSON.stringify({ u: userId, e: event, o: origin });

  if (config.redisUrl) {
    const channel = `luntan:live:${key}`;
    const options = { maxRetriesPerRequest: 1, enableOfflineQueue: false } as const;
    const publisher = new Redis(config.redisUrl, options);
    const subscriber = new Redis(config.redisUrl, { ...options, enableOfflineQueue: true });
    for (const client of [publisher, subscriber]) client.on('error', () => undefined);
    subscriber.on('message', (_channel, payload: string) => receive(payload));
    await subscriber.subscribe(channel);
    hub.useTransport(async (userId, event) => {
      hub.deliver(userId, event);
      await publisher.publish(channel, encode(userId, event));
    });
    return async () => {
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    };
  }

  if (config.databaseUrl) {
    const channel = `luntan_live_${key}`;
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
    pool.on('error', () => undefined);
    let listener: pg.Client | null = null;
    let closed = false;
    const listen = async (): Promise<void> => {
      const client = new pg.Client({ connectionString: config.databaseUrl });
      client.on('notification', (message) => {
        if (message.channel === channel && message.payload) receive(message.payload);
      });
      // A lost connection is made again: meanwhile other processes' events wait for the 60-second poll.
      client.on('error', () => undefined);
      client.on('end', () => {
        if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000).unref();
      });
      await client.connect();
      await client.query(`listen "${channel}"`);
      listener = client;
    };
    await listen();
    hub.useTransport(async (userId, event) => {
      hub.deliver(userId, event);
      await pool.query('select pg_notify($1, $2)', [channel, encode(userId, event)]);
    });
    return async () => {
      closed = true;
      await Promise.allSettled([listener?.end(), pool.end()]);
    };
  }

  return async () => undefined;
}
