// The Redis client for shared rate-limit counters. Tuned to fail fast: a command never waits for a
// reconnect (no offline queue) and gives up after a short timeout, so that an unreachable Redis makes
// the limiter fail open at once instead of holding every request.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

const commandTimeoutMs = 500;
const connectTimeoutMs = 2_000;

export function createRedisClient(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: connectTimeoutMs,
    // Keep trying to come back, at most every 2 s.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: false,
  });
  // Log the transitions, not every failed reconnect attempt.
  let healthy = true;
  redis.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    logger.warn({ err: error }, 'Redis is unreachable: rate limits are not enforced until it returns');
  });
  redis.on('ready', () => {
    if (healthy) return;
    healthy = true;
    logger.info('Redis is reachable again: rate limits are enforced');
  });
  return redis;
}

/** Resolves true once the client is ready, false when `timeoutMs` passes first (never rejects). */
export async function waitUntilReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

/** Closes the connection, politely if Redis answers, at once if it does not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    if (redis.status === 'ready') await redis.quit();
    else redis.disconnect();
  } catch {
    redis.disconnect();
  }
}
