// The server modules these tests use directly: the database opener, migrations and demo seed (to
// prepare a fresh database exactly as the service expects it), the comparison of kept invoice counts, and the server tests' TCP proxy (one
// helper for both packages). Imported by path because the server package exports only its app and the
// token helper.
export { openDatabase, type Database } from '../../../server/src/db/database.js';
export { migrate } from '../../../server/src/db/migrate.js';
export { seedIfEmpty } from '../../../server/src/db/seed.js';
export { compareInvoiceCounts } from '../../../server/src/db/invoice-counts.js';
export { mintDevToken } from '@invoice-api/server/dev-token';
export { startTcpProxy, type TcpProxy } from '../../../server/test/support/tcp-proxy.js';
