// Rate limits per API key (the token's client_id, else sub). Which budget an operation counts against
// is the spec's `x-rate-limit` on that operation (the generated table's `rateLimitGroup`): `search`
// 100/minute and 1000/hour, `export` 10/minute and 100/hour, `standard` 600/minute, `none` not
// limited; the numbers are settings in config.ts. Every limited answer carries the IETF draft-8
// `RateLimit-Policy` and `RateLimit` headers, one entry per policy. All policies of an operation are
// counted before deciding, so a 429 shows every policy's state, and Retry-After is the longest wait.
//
// Counters live in memory (one instance) or in Redis (shared by every instance). When Redis fails the
// limiter fails OPEN: the request is served and a warning logged. A rate limit protects capacity; it
// is not a security boundary, and refusing all traffic because a cache is down would turn a small
// outage into a full one.
import type { RequestHandler } from 'express';
import { MemoryStore, rateLimit, type AugmentedRequest, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RedisStore } from 'rate-limit-redis';
import type { RateLimitGroup } from '@invoice-api/contract';
import type { RateLimitConfig } from '../config.js';
import { HttpError } from './http-error.js';
import { sequence } from './sequence.js';
import './locals.js';

/** The groups that count; a group the spec names and this type lacks is a compile error below. */
type LimitedGroup = Exclude<RateLimitGroup, 'none'>;

export interface Policy {
  /** The name in the RateLimit headers, e.g. `"per-minute"`. */
  name: string;
  windowMs: number;
  limit: number;
  /** For people: "100 requests per minute". */
  describe: string;
}

/** Makes the store of one policy; `scope` is unique per policy (`search:per-minute`). */
export type RateLimitStoreFactory = (scope: string) => Store;

export function memoryStores(): RateLimitStoreFactory {
  return () => new MemoryStore();
}

/** Counters in Redis under `prefix`, so that every instance pointed at the same Redis shares them. */
export function redisStores(redis: Redis, prefix: string): RateLimitStoreFactory {
  return (scope) =>
    new SelfHealingStore(
      new RedisStore({
        prefix: `${prefix}${scope}:`,
        sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<number | string | Array<number | string>>,
      }),
    );
}

/**
 * rate-limit-redis loads its Lua scripts once, at start; if Redis was unreachable then, every later
 * call fails even after Redis returns. This wrapper reloads the scripts after a failure, so counting
 * resumes by itself once Redis is back.
 */
class SelfHealingStore implements Store {
  private options: Options | undefined;
  private reloading = false;

  constructor(private readonly inner: RedisStore) {}

  /**
   * express-rate-limit's double-count check tells the stores of one request apart by this prefix (a
   * store without `localKeys` is otherwise known only by its class name). Without it, the two search
   * policies counting the same API key look like one key counted twice.
   */
  get prefix(): string {
    return this.inner.prefix;
  }

  async init(options: Options): Promise<void> {
    this.options = options;
    await this.inner.init(options);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.inner.get(key);
  }

  async increment(key: string): Promise<IncrementResponse> {
    try {
      return await this.inner.increment(key);
    } catch (error) {
      this.reload();
      throw error;
    }
  }

  async decrement(key: string): Promise<void> {
    await this.inner.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    await this.inner.resetKey(key);
  }

  private reload(): void {
    if (this.reloading || this.options === undefined) return;
    this.reloading = true;
    this.inner
      .init(this.options)
      .catch(() => undefined)
      .finally(() => {
        this.reloading = false;
      });
  }
}

/** The policies of every limited group: the spec names the group, the configuration the numbers. */
export function policies(config: RateLimitConfig): Record<LimitedGroup, Policy[]> {
  const minute = 60_000;
  const hour = 60 * minute;
  return {
    search: [
      { name: 'per-minute', windowMs: minute, limit: config.searchPerMinute, describe: `${config.searchPerMinute} requests per minute` },
      { name: 'per-hour', windowMs: hour, limit: config.searchPerHour, describe: `${config.searchPerHour} requests per hour` },
    ],
    export: [
      { name: 'per-minute', windowMs: minute, limit: config.exportPerMinute, describe: `${config.exportPerMinute} requests per minute` },
      { name: 'per-hour', windowMs: hour, limit: config.exportPerHour, describe: `${config.exportPerHour} requests per hour` },
    ],
    standard: [{ name: 'per-minute', windowMs: minute, limit: config.perMinute, describe: `${config.perMinute} requests per minute` }],
  };
}

interface Exceeded {
  policy: Policy;
  retryAfterSeconds: number;
}

const exceededByResponse = new WeakMap<object, Exceeded[]>();

/** One limiter per policy; the handler only records an exceeded policy, the decision comes after all. */
function limiter(group: string, policy: Policy, store: Store, logger: Logger): RequestHandler {
  const requestPropertyName = `rateLimit:${group}:${policy.name}`;
  return rateLimit({
    windowMs: policy.windowMs,
    limit: policy.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: policy.name,
    requestPropertyName,
    store,
    passOnStoreError: true,
    logger: {
      // The library reports two kinds of error here: its own configuration checks (coded `ERR_ERL_*`,
      // the request is still counted) and a failing store (the request is served uncounted).
      error: (error, message) => {
        const context = { err: error, policy: `${group}:${policy.name}` };
        if (isConfigurationCheck(error)) logger.error(context, 'rate limit configuration check failed');
        else logger.warn(context, `rate limit store failed, request served without limit: ${message ?? ''}`);
      },
      warn: (error, message) => logger.warn({ err: error }, message ?? 'rate limit warning'),
    },
    // Only operations behind a verified token reach this point with a caller; others are not limited.
    skip: (_req, res) => res.locals.caller === undefined,
    keyGenerator: (_req, res) => res.locals.caller?.apiKey ?? '',
    handler: (req, res, next) => {
      const info = (req as AugmentedRequest)[requestPropertyName];
      const resetMs = info?.resetTime === undefined ? policy.windowMs : info.resetTime.getTime() - Date.now();
      const exceeded = exceededByResponse.get(res) ?? [];
      exceeded.push({ policy, retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)) });
      exceededByResponse.set(res, exceeded);
      next();
    },
  });
}

function isConfigurationCheck(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_ERL_');
}

/** Told of every 429, by group (the metrics' refusal counter). */
export type RefusalListener = (group: string) => void;

function decide(group: string, onRefused: RefusalListener | undefined): RequestHandler {
  return (_req, res, next) => {
    const exceeded = exceededByResponse.get(res);
    if (exceeded === undefined || exceeded.length === 0) {
      next();
      return;
    }
    onRefused?.(group);
    const retryAfter = Math.max(...exceeded.map((entry) => entry.retryAfterSeconds));
    const first = exceeded[0]?.policy.describe ?? 'the rate limit';
    next(
      new HttpError(429, 'rate_limited', `Rate limit exceeded: ${first} for this API key. Retry after ${retryAfter} seconds.`, {
        'Retry-After': String(retryAfter),
      }),
    );
  };
}

export function rateLimits(config: RateLimitConfig, stores: RateLimitStoreFactory, logger: Logger, onRefused?: RefusalListener): RequestHandler {
  const chains = new Map<string, RequestHandler>(
    Object.entries(policies(config)).map(([group, groupPolicies]) => [
      group,
      sequence([...groupPolicies.map((policy) => limiter(group, policy, stores(`${group}:${policy.name}`), logger)), decide(group, onRefused)]),
    ]),
  );
  return (req, res, next) => {
    const operation = res.locals.operation;
    const limit = operation === undefined || res.locals.caller === undefined ? undefined : chains.get(operation.rateLimitGroup);
    // No chain: no operation, no caller (no token needed), or the group `none`.
    if (limit === undefined) next();
    else limit(req, res, next);
  };
}
