// The service on PGlite for the benchmark's smaller PGlite run: the same composition as the server's
// startService (config, migrations, app, HTTP server), with the PGlite data directory the benchmark
// loaded (BENCH_PGLITE_DIR), which the service's own configuration cannot point at. Run as a child.
import { createApp, createLogger, flushLogs, loadConfig, startServer } from '@invoice-api/server';
import { createHandlers, migrate, openDatabase } from './server-modules.js';

const dataDir = process.env['BENCH_PGLITE_DIR'];
if (dataDir === undefined || dataDir === '') throw new Error('BENCH_PGLITE_DIR is required');
const config = loadConfig({ ...process.env, DATABASE_URL: '' });
const logger = createLogger(config.logLevel);
const database = await openDatabase({ dataDir });
await migrate(database);
const app = await createApp({ config, database, handlers: createHandlers(), logger });
const server = await startServer(app, config);
logger.info({ url: server.url, database: database.engine }, 'listening');
flushLogs(logger);
process.once('SIGTERM', () => {
  void server
    .close(config.timeouts.shutdownMs)
    .then(() => database.close())
    .finally(() => process.exit(0));
});
