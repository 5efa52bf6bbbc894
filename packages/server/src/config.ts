// Every environment variable the service reads, with its default and its validation, in one place.
// A bad value stops the process at start with a message naming the variable, rather than surfacing
// as a strange failure at the first request.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The request body limit is a product decision (1 MiB), not a setting. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The largest uploaded file (a multipart file part, a bytes request body) whose schema states no
 * `maxLength`: UPLOAD_FILE_LIMIT_BYTES, 10 MiB unless set. An upload is held in memory until the handler
 * has it (a web `File`), so the setting is bounded too.
 */
export const DEFAULT_UPLOAD_FILE_LIMIT_BYTES = 10 * 1024 * 1024;
const MAX_UPLOAD_FILE_LIMIT_BYTES = 256 * 1024 * 1024;

/** Fixed issuer and audience of development tokens, so a dev token can never pass in production. */
export const DEV_TOKEN_ISSUER = 'urn:invoice-api:dev';
export const DEV_TOKEN_AUDIENCE = 'urn:invoice-api';

/** Repository root (this file is packages/server/src/config.ts). */
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** `.dev/jwt-signing-key.json` at the repository root; `.dev/` is git-ignored. */
export const defaultDevKeyFile = `${repositoryRoot}.dev/jwt-signing-key.json`;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** `auto`: human-readable lines when stdout is a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'pretty' | 'json';
const logFormats: readonly LogFormat[] = ['auto', 'pretty', 'json'];

/** How tokens are verified: the local development key, or a JWKS with issuer and audience checks. */
export type AuthConfig = { mode: 'dev'; keyFile: string; issuer: string; audience: string } | { mode: 'jwks'; jwksUrl: URL; issuer: string; audience: string };

export interface RateLimitConfig {
  searchPerMinute: number;
  searchPerHour: number;
  perMinute: number;
  /** An export reads a whole account: its own, smaller budget (x-rate-limit: export). */
  exportPerMinute: number;
  exportPerHour: number;
  /** Unset: counters live in process memory (one instance). Set: shared by every instance. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so that test runs or deployments sharing a Redis do not collide. */
  redisKeyPrefix: string;
}

export interface Config {
  production: boolean;
  host: string;
  /** 0 means any free port (tests, harnesses); the actual URL is logged at start. */
  port: number;
  database: {
    /** Unset: PGlite under .data/; `memory:`: PGlite in memory; `postgres://…`: PostgreSQL. */
    url: string | undefined;
    poolSize: number;
    /** Name each statement on PostgreSQL so that it is parsed and planned once per connection (prepared-statements.ts). */
    preparedStatements: boolean;
    /** PGlite's data directory when `url` is unset; undefined: `.data/pglite` at the repository root. */
    pgliteDataDir: string | undefined;
  };
  /** Fill an empty database with the demo data at start (default on, off in production). */
  seedDemoData: boolean;
  auth: AuthConfig;
  rateLimit: RateLimitConfig;
  idempotency: {
    /** How long the answer to a request with an Idempotency-Key is kept and replayed (1 h to 30 days). */
    ttlHours: number;
  };
  uploads: {
    /** The largest file of an upload whose schema states no `maxLength` (UPLOAD_FILE_LIMIT_BYTES). */
    fileLimitBytes: number;
  };
  /** Origins allowed by CORS; empty: no CORS headers at all. */
  corsOrigins: string[];
  logLevel: LogLevel;
  logFormat: LogFormat;
  /**
   * The Prometheus endpoint, on a listener of its own so that it is never reachable on the API's port
   * nor behind its token and rate limits; undefined: no metrics are kept at all.
   */
  metrics: { host: string; port: number } | undefined;
  /** Validate every response against the spec (on by default; `off` saves about 15% of CPU). */
  responseValidation: boolean;
  /**
   * Validate every request against the spec. Always on in service; `off` exists only so that the
   * benchmark can measure what request validation costs, and NODE_ENV=production refuses it.
   */
  requestValidation: boolean;
  timeouts: {
    /** Grace period for requests in flight at shutdown; the process exits after it regardless. */
    shutdownMs: number;
    /** Time a client has to send the complete request headers (slowloris). */
    headersMs: number;
    /** Time a client has to send the complete request, body included. */
    requestMs: number;
    /** How long an idle keep-alive connection stays open. */
    keepAliveMs: number;
  };
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Environment = Readonly<Record<string, string | undefined>>;

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Environment = process.env): Config {
  const read = reader(env);
  const production = read.string('NODE_ENV', '') === 'production';
  // First: whatever else is wrong, a production service without request validation is refused.
  const requestValidation = readRequestValidation(read, production);

  const headersMs = read.integer('HEADERS_TIMEOUT_MS', 10_000, 1_000, 600_000);
  const requestMs = read.integer('REQUEST_TIMEOUT_MS', 30_000, 1_000, 3_600_000);
  if (requestMs < headersMs) {
    throw new ConfigError(`REQUEST_TIMEOUT_MS (${requestMs}) must not be below HEADERS_TIMEOUT_MS (${headersMs}).`);
  }

  return {
    production,
    host: read.string('HOST', '127.0.0.1'),
    port: read.integer('PORT', 3000, 0, 65_535),
    database: loadDatabaseConfig(env),
    seedDemoData: read.oneOf('SEED_DEMO_DATA', production ? 'off' : 'on', ['on', 'off'] as const) === 'on',
    auth: readAuth(env, production),
    rateLimit: {
      searchPerMinute: read.integer('RATE_LIMIT_SEARCH_PER_MINUTE', 100, 1, 100_000_000),
      searchPerHour: read.integer('RATE_LIMIT_SEARCH_PER_HOUR', 1000, 1, 100_000_000),
      perMinute: read.integer('RATE_LIMIT_PER_MINUTE', 600, 1, 100_000_000),
      exportPerMinute: read.integer('RATE_LIMIT_EXPORT_PER_MINUTE', 10, 1, 100_000_000),
      exportPerHour: read.integer('RATE_LIMIT_EXPORT_PER_HOUR', 100, 1, 100_000_000),
      redisUrl: readRedisUrl(env),
      redisKeyPrefix: read.string('RATE_LIMIT_REDIS_PREFIX', 'invoice-api:rate-limit:'),
    },
    idempotency: { ttlHours: read.integer('IDEMPOTENCY_TTL_HOURS', 24, 1, 720) },
    uploads: { fileLimitBytes: read.integer('UPLOAD_FILE_LIMIT_BYTES', DEFAULT_UPLOAD_FILE_LIMIT_BYTES, 1, MAX_UPLOAD_FILE_LIMIT_BYTES) },
    corsOrigins: readCorsOrigins(env),
    logLevel: read.oneOf('LOG_LEVEL', 'info', logLevels),
    logFormat: read.oneOf('LOG_FORMAT', 'auto', logFormats),
    metrics: readMetrics(read),
    responseValidation: read.oneOf('RESPONSE_VALIDATION', 'on', ['on', 'off'] as const) === 'on',
    requestValidation,
    timeouts: {
      shutdownMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
      headersMs,
      requestMs,
      keepAliveMs: read.integer('KEEP_ALIVE_TIMEOUT_MS', 5_000, 0, 600_000),
    },
  };
}

/**
 * The database settings alone (DATABASE_URL, DATABASE_POOL_SIZE, DATABASE_PREPARED_STATEMENTS, PGLITE_DATA_DIR), read as the service
 * reads them: the database commands (db:check-totals, db:backup, db:restore, db:copy) open the same
 * database, and run where the rest of the configuration (tokens, ports) is absent or belongs elsewhere.
 */
export function loadDatabaseConfig(env: Environment = process.env): Config['database'] {
  return {
    url: readDatabaseUrl(env),
    poolSize: reader(env).integer('DATABASE_POOL_SIZE', 10, 1, 1_000),
    preparedStatements: reader(env).oneOf('DATABASE_PREPARED_STATEMENTS', 'on', ['on', 'off'] as const) === 'on',
    pgliteDataDir: readPgliteDataDir(env),
  };
}

/** Benchmark-only: without request validation the handlers see unchecked input. */
function readRequestValidation(read: ReturnType<typeof reader>, production: boolean): boolean {
  const on = read.oneOf('REQUEST_VALIDATION', 'on', ['on', 'off'] as const) === 'on';
  if (!on && production) {
    throw new ConfigError('REQUEST_VALIDATION=off is for benchmarks only: NODE_ENV=production never runs without request validation.');
  }
  return on;
}

function readMetrics(read: ReturnType<typeof reader>): Config['metrics'] {
  const port = read.integer('METRICS_PORT', -1, 0, 65_535);
  if (port === -1) return undefined;
  const apiPort = read.integer('PORT', 3000, 0, 65_535);
  // 0 picks a free port for each listener, so only a fixed port can collide.
  if (port !== 0 && port === apiPort) {
    throw new ConfigError(`METRICS_PORT (${port}) must differ from PORT: /metrics is never served on the API's port.`);
  }
  return { host: read.string('METRICS_HOST', read.string('HOST', '127.0.0.1')), port };
}

function readDatabaseUrl(env: Environment): string | undefined {
  const url = env.DATABASE_URL?.trim();
  if (url === undefined || url === '') return undefined;
  if (url === 'memory:' || /^postgres(ql)?:\/\//.test(url)) return url;
  // Never echo the value: it may carry a password.
  throw new ConfigError('DATABASE_URL must be unset, "memory:", or a postgres:// or postgresql:// URL.');
}

/** Relative to the repository root, like the default, whatever directory the process starts in. */
function readPgliteDataDir(env: Environment): string | undefined {
  const path = env.PGLITE_DATA_DIR?.trim();
  if (path === undefined || path === '') return undefined;
  return resolve(repositoryRoot, path);
}

function readRedisUrl(env: Environment): string | undefined {
  const url = env.REDIS_URL?.trim();
  if (url === undefined || url === '') return undefined;
  if (/^rediss?:\/\//.test(url)) return url;
  throw new ConfigError('REDIS_URL must be unset or a redis:// or rediss:// URL.');
}

function readCorsOrigins(env: Environment): string[] {
  const origins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  for (const origin of origins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new ConfigError(`CORS_ORIGINS: '${origin}' is not an origin such as https://app.example.com.`);
    }
    // Browsers send the origin without a path or trailing slash; anything else would never match.
    if (parsed.origin !== origin) {
      throw new ConfigError(`CORS_ORIGINS: '${origin}' is not an origin; did you mean '${parsed.origin}'?`);
    }
  }
  return origins;
}

function readAuth(env: Environment, production: boolean): AuthConfig {
  const issuer = env.JWT_ISSUER?.trim() ?? '';
  const audience = env.JWT_AUDIENCE?.trim() ?? '';
  const jwksUrl = env.JWT_JWKS_URL?.trim() ?? '';
  const anySet = issuer !== '' || audience !== '' || jwksUrl !== '';

  if (production || anySet) {
    const missing = [
      ['JWT_ISSUER', issuer],
      ['JWT_AUDIENCE', audience],
      ['JWT_JWKS_URL', jwksUrl],
    ]
      .filter(([, value]) => value === '')
      .map(([name]) => name);
    if (missing.length > 0) {
      const why = production ? 'NODE_ENV=production never uses the development key' : 'they only work together';
      throw new ConfigError(`${missing.join(', ')} must be set: ${why}.`);
    }
    let url: URL;
    try {
      url = new URL(jwksUrl);
    } catch {
      throw new ConfigError('JWT_JWKS_URL must be an absolute http(s) URL.');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError('JWT_JWKS_URL must be an http(s) URL.');
    if (production && url.protocol !== 'https:') throw new ConfigError('JWT_JWKS_URL must use https in production.');
    if (production && env.DEV_KEY_FILE !== undefined) {
      throw new ConfigError('DEV_KEY_FILE is set but NODE_ENV=production refuses the development key.');
    }
    return { mode: 'jwks', jwksUrl: url, issuer, audience };
  }

  const keyFile = env.DEV_KEY_FILE?.trim() || defaultDevKeyFile;
  return { mode: 'dev', keyFile, issuer: DEV_TOKEN_ISSUER, audience: DEV_TOKEN_AUDIENCE };
}

function reader(env: Environment) {
  return {
    string(name: string, fallback: string): string {
      const value = env[name]?.trim();
      return value === undefined || value === '' ? fallback : value;
    },
    integer(name: string, fallback: number, min: number, max: number): number {
      const raw = env[name]?.trim();
      if (raw === undefined || raw === '') return fallback;
      if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got '${raw}'.`);
      const value = Number(raw);
      if (value < min || value > max) throw new ConfigError(`${name} must be from ${min} to ${max}, got ${value}.`);
      return value;
    },
    oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
      const raw = env[name]?.trim().toLowerCase();
      if (raw === undefined || raw === '') return fallback;
      const match = allowed.find((candidate) => candidate === raw);
      if (match === undefined) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got '${raw}'.`);
      return match;
    },
  };
}
