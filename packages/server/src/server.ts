import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { createContext } from './context.js';
import { connectSignalTransport } from './core/signal-transport.js';
import { migrateToLatest, openDatabase, type Database } from './db/database.js';
import { seed, type SeedResult } from './seed.js';
import { vapidKeys } from './modules/push/index.js';

export interface Server {
  app: FastifyInstance;
  database: Database;
  seeded: SeedResult;
  /**
   * Stops taking connections, lets the requests in flight finish (those still running after `graceMs` lose their
   * connections), then closes the signal transport and the database.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface ServerOptions {
  /** Where the log goes instead of stdout (tests read it: the log SMS provider's lines). */
  logStream?: NodeJS.WritableStream;
  /**
   * false: the database is ready already (a cluster worker: the primary migrated and seeded it before forking).
   * Default true: migrate and seed first.
   */
  prepare?: boolean;
}

/** Migrates the database forward and seeds what is missing: once per start, before any app serves it. */
export async function prepareDatabase(database: Database, config: Config): Promise<SeedResult> {
  await migrateToLatest(database);
  // Web Push's VAPID key pair, made on the first start and kept (modules/push).
  await vapidKeys(database.db);
  return seed(database.db, {
    ...(config.adminUsername ? { adminUsername: config.adminUsername } : {}),
    ...(config.adminPassword ? { adminPassword: config.adminPassword } : {}),
  });
}

/** Opens the database, prepares it (unless told it is ready) and builds the app (not yet listening). */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const database = await openDatabase(config);
  try {
    const seeded = options.prepare === false ? {} : await prepareDatabase(database, config);
    const app = await buildApp(
      createContext(config, database),
      options.logStream ? { logStream: options.logStream } : {},
    );
    const disconnectSignals = await connectSignalTransport(app.ctx.signals, config, app.log);
    app.ctx.events.start(app.log);
    return {
      app,
      database,
      seeded,
      async close({ graceMs }: { graceMs?: number } = {}) {
        const deadline =
          graceMs === undefined
            ? undefined
            : setTimeout(() => {
                app.log.warn({ graceMs }, 'requests still running at the stop deadline: closing their connections');
                app.server.closeAllConnections();
              }, graceMs);
        try {
          await app.close();
        } finally {
          clearTimeout(deadline);
        }
        // The deliveries under way finish; those not begun wait in the database for the next start.
        await app.ctx.events.stop();
        await disconnectSignals();
        await database.destroy();
      },
    };
  } catch (err) {
    await database.destroy();
    throw err;
  }
}
