// The server modules the benchmark reuses, in one place: its database opener (same type parsers and
// session settings as the service) and its migrations (the data set gets exactly the service's
// schema and indexes). Imported by path because the server package exports only its app and token.
export { openDatabase, type Database } from '../../server/src/db/database.js';
export { migrate, migrateDownTo } from '../../server/src/db/migrate.js';
export { typeParsers } from '../../server/src/db/type-parsers.js';
export { DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER } from '../../server/src/config.js';
export { mintDevToken } from '@invoice-api/server/dev-token';
export { parseSearchRequest, searchInvoices } from '../../server/src/search/index.js';
export { createHandlers } from '../../server/src/operations/index.js';
export { findInvoice } from '../../server/src/db/invoices.js';
export { invoiceColumns } from '../../server/src/db/mappers.js';
export type { DatabaseSchema } from '../../server/src/db/schema.js';
