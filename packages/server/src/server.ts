import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { createContext } from './context.js';
import { connectLiveTransport } from './core/live-transport.js';
import { migrateToLatest, openDatabase, type Database } from './db/database.js';
import { seed, type SeedResult } from './db/seed.js';

export interface Server {
  app: FastifyInstance;
  database: Database;
  seeded: SeedResult;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Where the log goes instead of stdout (tests read it: the log SMS provider's lines). */
  logStream?: NodeJS.WritableStream;
}

/** Opens the database, migrates it forward, seeds what is missing and builds the app (not yet listening). */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database);
    const seeded = await seed(database.db, {
      ...(config.adminUsername ? { adminUsername: config.adminUsername } : {}),
      ...(config.adminPassword ? { adminPassword: config.adminPassword } : {}),
    });
    const app = await buildApp(createContext(config, database), options);
    const disconnectLive = await connectLiveTransport(app.ctx.live, config, app.log);
    return {
      app,
      database,
      seeded,
      async close() {
        await app.close();
        await disconnectLive();
        await database.destroy();
      },
    };
  } catch (err) {
    await database.destroy();
    throw err;
  }
}
