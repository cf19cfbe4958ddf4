import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import { GuestAnswerCache } from './core/guest-cache.js';
import { AttemptLimiter } from './core/rate-limit.js';
import type { DialectName } from './db/database.js';
import type { DB } from './db/schema.js';
import type { ViewerContext } from './modules/auth/viewer.js';
import { StopWordCache } from './modules/stop-words/stop-words.service.js';

/** What every route module needs, built once per app instance (so tests get their own). */
export interface AppContext {
  config: Config;
  db: Kysely<DB>;
  dialect: DialectName;
  uploadsDir: string;
  limits: { register: AttemptLimiter; loginFailures: AttemptLimiter };
  /** This process's stop-word matcher, rebuilt when the list changes (in any process). */
  stopWords: StopWordCache;
  /** What guests read, kept for a moment (core/guest-cache.ts). */
  guestCache: GuestAnswerCache;
}

export function createContext(config: Config, db: Kysely<DB>, dialect: DialectName): AppContext {
  return {
    config,
    db,
    dialect,
    uploadsDir: path.join(config.dataDir, 'uploads'),
    limits: {
      register: new AttemptLimiter(config.rateLimitRegister),
      loginFailures: new AttemptLimiter(config.rateLimitLoginFailures),
    },
    stopWords: new StopWordCache(),
    guestCache: new GuestAnswerCache(config.guestCacheMs),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    viewer: ViewerContext;
  }
}
