// A process that logs two lines through the service's logger, configured from the environment as
// main.ts does (LOG_LEVEL, LOG_FORMAT): tests run it on a pipe and on a pseudo-terminal.
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/runtime/logger.js';

const config = loadConfig();
const logger = createLogger(config.logLevel, config.logFormat);
logger.info({ url: 'http://127.0.0.1:3000', docs: 'http://127.0.0.1:3000/docs', openapi: 'http://127.0.0.1:3000/openapi.json' }, 'listening');
logger.info({ req: { method: 'GET', url: '/healthz' }, res: { status: 200 }, responseTime: 3, requestId: 'r-1' }, 'request completed');
