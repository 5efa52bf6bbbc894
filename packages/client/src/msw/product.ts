// The handlers of the product's spec: its generated tables (packages/contract/generated/operations.ts,
// ../../generated/msw-answers.ts, msw-request-validators.ts) bound to the handler kit, typed by its
// `operations`. What `@invoice-api/client/msw` exports.
import { operationTable, type OperationId, type operations } from '@invoice-api/contract';
import { generationSchemas, mswOperations } from '../../generated/msw-answers.js';
import { requestValidators } from '../../generated/msw-request-validators.js';
import type { MswTables } from './answer-table.js';
import { mswHandlers } from './handlers.js';

/** The product's generated tables. */
export const productTables: MswTables<OperationId> = { operationTable, mswOperations, generationSchemas, requestValidators };

const product = mswHandlers<operations>(productTables);

/** One handler per operation of the spec: `setupServer(...createHandlers())`, `setupWorker(...createHandlers())`. */
export const createHandlers = product.createHandlers;
/** The handler of one operation, e.g. for `server.use(operationHandler('searchInvoices', { override: { status: 503 } }))`. */
export const operationHandler = product.operationHandler;
/** A handler factory per operation: `server.use(operationHandlers.getInvoice({ override: { status: 404 } }))`. */
export const operationHandlers = product.operationHandlers;
