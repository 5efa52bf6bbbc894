// The server modules the benchmark reuses, in one place: its database opener (same type parsers and
// session settings as the service) and its migrations (the data set gets exactly the service's
// schema and indexes). Imported by path because the server package exports only its app and token.
// The query code comes from server-query-modules.ts, which the bare handler's process imports alone.
export { openDatabase } from '../../server/src/db/database.js';
export { migrate, migrateDownTo } from '../../server/src/db/migrate.js';
export { DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER } from '../../server/src/config.js';
export { mintDevToken } from '@invoice-api/server/dev-token';
export { createHandlers } from '../../server/src/operations/index.js';
export { invoiceColumns } from '../../server/src/db/mappers.js';
export { findInvoice, parseSearchRequest, searchInvoices, typeParsers, type Database, type DatabaseSchema } from './server-query-modules.js';
