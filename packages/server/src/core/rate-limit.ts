import { Code } from '@luntan/shared';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from './errors.js';

/**
 * Per-address limits on sign-up and failed sign-in, counted in this process's memory (rate-limiter-flexible).
 * Several app processes each count their own share, which is the right order of magnitude for brute-force defence.
 */
export class AttemptLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(
    readonly points: number,
    readonly durationSeconds = 60,
  ) {
    this.limiter = new RateLimiterMemory({ points, duration: durationSeconds });
  }

  /** Throws -4029 when the address has used up its attempts. */
  async assertAllowed(key: string): Promise<void> {
    const res = await this.limiter.get(key);
    if (res && res.consumedPoints >= this.points) throw tooMany(res.msBeforeNext);
  }

  /** Counts one attempt; throws -4029 when it goes over the limit. */
  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany(err.msBeforeNext);
      throw err;
    }
  }
}

function tooMany(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(
    Code.TOO_MANY_REQUESTS,
    {
      zh: `操作过于频繁，请 ${seconds} 秒后再试`,
      en: `too many attempts, please wait ${seconds} seconds and try again`,
    },
    { httpStatus: 429, headers: { 'retry-after': String(seconds) }, data: { retryAfter: seconds } },
  );
}
