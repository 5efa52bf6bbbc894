// The configuration: defaults, and a clear refusal (naming the variable) for every bad value.
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER, defaultDevKeyFile, loadConfig } from '../../src/config.js';

const production = {
  NODE_ENV: 'production',
  JWT_ISSUER: 'https://auth.example.com/',
  JWT_AUDIENCE: 'https://api.example.com',
  JWT_JWKS_URL: 'https://auth.example.com/jwks.json',
};

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      production: false,
      host: '127.0.0.1',
      port: 3000,
      database: { url: undefined, poolSize: 10 },
      seedDemoData: true,
      auth: { mode: 'dev', keyFile: defaultDevKeyFile, issuer: DEV_TOKEN_ISSUER, audience: DEV_TOKEN_AUDIENCE },
      rateLimit: { searchPerMinute: 100, searchPerHour: 1000, perMinute: 600, redisUrl: undefined },
      idempotency: { ttlHours: 24 },
      uploads: { fileLimitBytes: 10 * 1024 * 1024 },
      corsOrigins: [],
      logLevel: 'info',
      responseValidation: true,
      requestValidation: true,
      timeouts: { shutdownMs: 10_000, headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 },
    });
    expect(defaultDevKeyFile).toMatch(/\/\.dev\/jwt-signing-key\.json$/);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      DATABASE_URL: 'postgres://user@db:5432/invoices',
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMIT_SEARCH_PER_MINUTE: '5',
      RATE_LIMIT_SEARCH_PER_HOUR: '50',
      RATE_LIMIT_PER_MINUTE: '60',
      CORS_ORIGINS: 'https://a.example, https://b.example:8443',
      LOG_LEVEL: 'WARN',
      RESPONSE_VALIDATION: 'off',
      REQUEST_VALIDATION: 'off',
      SHUTDOWN_TIMEOUT_MS: '2500',
      DEV_KEY_FILE: '/tmp/key.json',
      IDEMPOTENCY_TTL_HOURS: '48',
      UPLOAD_FILE_LIMIT_BYTES: '2097152',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      database: { url: 'postgres://user@db:5432/invoices' },
      auth: { mode: 'dev', keyFile: '/tmp/key.json' },
      rateLimit: { searchPerMinute: 5, searchPerHour: 50, perMinute: 60, redisUrl: 'redis://cache:6379' },
      corsOrigins: ['https://a.example', 'https://b.example:8443'],
      logLevel: 'warn',
      responseValidation: false,
      requestValidation: false,
      timeouts: { shutdownMs: 2500 },
      idempotency: { ttlHours: 48 },
      uploads: { fileLimitBytes: 2 * 1024 * 1024 },
    });
    expect(loadConfig({ DATABASE_URL: 'memory:' }).database.url).toBe('memory:');
    expect(loadConfig({}).database.pgliteDataDir).toBeUndefined();
    expect(loadConfig({ PGLITE_DATA_DIR: '/srv/invoices/pglite' }).database.pgliteDataDir).toBe('/srv/invoices/pglite');
    // Relative to the repository root, like the default `.data/pglite`, wherever the process starts.
    expect(loadConfig({ PGLITE_DATA_DIR: '.data/other' }).database.pgliteDataDir).toBe(
      defaultDevKeyFile.replace(/\.dev\/jwt-signing-key\.json$/, '.data/other'),
    );
  });

  it.each([
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ RATE_LIMIT_SEARCH_PER_MINUTE: '0' }, /RATE_LIMIT_SEARCH_PER_MINUTE/],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, /RATE_LIMIT_PER_MINUTE/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ IDEMPOTENCY_TTL_HOURS: '0' }, /IDEMPOTENCY_TTL_HOURS/],
    [{ IDEMPOTENCY_TTL_HOURS: '721' }, /IDEMPOTENCY_TTL_HOURS/],
    [{ UPLOAD_FILE_LIMIT_BYTES: '0' }, /UPLOAD_FILE_LIMIT_BYTES/],
    [{ UPLOAD_FILE_LIMIT_BYTES: String(256 * 1024 * 1024 + 1) }, /UPLOAD_FILE_LIMIT_BYTES/],
    [{ RESPONSE_VALIDATION: 'maybe' }, /RESPONSE_VALIDATION/],
    [{ REQUEST_VALIDATION: 'no' }, /REQUEST_VALIDATION/],
    [{ REDIS_URL: 'cache:6379' }, /REDIS_URL/],
    [{ CORS_ORIGINS: 'https://a.example/path' }, /CORS_ORIGINS.*https:\/\/a\.example/],
    [{ CORS_ORIGINS: 'not a url' }, /CORS_ORIGINS/],
    [{ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' }, /REQUEST_TIMEOUT_MS/],
    [{ JWT_ISSUER: 'https://auth.example.com/' }, /JWT_AUDIENCE, JWT_JWKS_URL/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a database URL, which may hold a password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/x' })).not.toThrow(/hunter2/);
  });

  describe('in production', () => {
    it('verifies tokens with the JWKS, issuer and audience', () => {
      const config = loadConfig(production);
      expect(config.production).toBe(true);
      expect(config.auth).toEqual({
        mode: 'jwks',
        jwksUrl: new URL(production.JWT_JWKS_URL),
        issuer: production.JWT_ISSUER,
        audience: production.JWT_AUDIENCE,
      });
      expect(config.seedDemoData).toBe(false);
    });

    it('refuses to start with the development key', () => {
      expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_ISSUER, JWT_AUDIENCE, JWT_JWKS_URL must be set/);
      expect(() => loadConfig({ ...production, JWT_AUDIENCE: '' })).toThrow(/JWT_AUDIENCE/);
      expect(() => loadConfig({ ...production, DEV_KEY_FILE: '/tmp/key.json' })).toThrow(/DEV_KEY_FILE/);
    });

    it('never runs without request validation (REQUEST_VALIDATION=off is for benchmarks only)', () => {
      expect(() => loadConfig({ ...production, REQUEST_VALIDATION: 'off' })).toThrow(ConfigError);
      expect(() => loadConfig({ ...production, REQUEST_VALIDATION: 'off' })).toThrow(/REQUEST_VALIDATION=off is for benchmarks only/);
      expect(loadConfig({ ...production, REQUEST_VALIDATION: 'on' }).requestValidation).toBe(true);
      expect(loadConfig(production).requestValidation).toBe(true);
    });

    it('wants the key set over https', () => {
      expect(() => loadConfig({ ...production, JWT_JWKS_URL: 'http://auth.example.com/jwks.json' })).toThrow(/https/);
    });
  });
});

describe('loadConfig: metrics and log format', () => {
  it('keeps no metrics and picks the log format by terminal unless told', () => {
    const config = loadConfig({});
    expect(config.metrics).toBeUndefined();
    expect(config.logFormat).toBe('auto');
  });

  it('serves metrics on METRICS_PORT, on HOST unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464' }).metrics).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '0', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ host: '10.0.0.5', port: 0 });
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
  });

  it('refuses a bad METRICS_PORT, the API port itself, and an unknown LOG_FORMAT', () => {
    expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow(new ConfigError("METRICS_PORT must be a whole number from 0 to 65535, got 'on'."));
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(
      new ConfigError("METRICS_PORT (3000) must differ from PORT: /metrics is never served on the API's port."),
    );
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/must differ from PORT/);
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).metrics?.port).toBe(0);
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(new ConfigError("LOG_FORMAT must be one of auto, pretty, json, got 'yaml'."));
  });
});
