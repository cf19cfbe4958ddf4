import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';

const require = createRequire(import.meta.url);

/**
 * ioredis's client class, loaded the first time a Redis connection is made (REDIS_URL): a forum without Redis never
 * loads it (a few MB of a process's memory; docs/performance.md, "eleventh part"). Synchronous, as ioredis is
 * CommonJS.
 */
export function redisClass(): typeof IORedis.Redis {
  return (require('ioredis') as typeof IORedis).Redis;
}
