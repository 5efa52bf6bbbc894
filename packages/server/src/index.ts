// What other packages may use from the service: build the app, run the whole service in-process,
// read the configuration. Development tokens have their own entry: `@invoice-api/server/dev-token`.
export { createApp, type AppOptions, type ServedApi } from './app.js';
export { productContract, type ServedContract } from './http/served-contract.js';
export type { Answer, ServedHandler, ServedHandlers } from './http/router.js';
export { BODY_LIMIT_BYTES, ConfigError, DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER, loadConfig, type Config } from './config.js';
export { createLogger, flushLogs } from './runtime/logger.js';
export { memoryStores, redisStores, type RateLimitStoreFactory } from './http/rate-limit.js';
export { createRedisClient } from './runtime/redis.js';
export { startServer, type RunningServer } from './runtime/server.js';
export { startService, type RunningService } from './service.js';
