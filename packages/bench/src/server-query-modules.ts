// The server's query code alone: what builds the service's SQL (the search, getInvoice) and reads its
// answers (the type parsers). The bare handler imports this instead of server-modules.ts, which also
// loads the database engines (PGlite), the migrations and every operation: through tsx, seconds of CPU
// at every start of its process, which the bare handler never uses.
export type { Database } from '../../server/src/db/database.js';
export type { DatabaseSchema } from '../../server/src/db/schema.js';
export { findInvoice } from '../../server/src/db/invoices.js';
export { typeParsers } from '../../server/src/db/type-parsers.js';
export { parseSearchRequest, searchInvoices } from '../../server/src/search/index.js';
