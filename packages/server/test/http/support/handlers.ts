// Small handler maps for testing the HTTP layer on its own: every operation is present (the type
// demands it), the few a test uses answer valid bodies, the rest fail loudly if a test reaches them.
import { operationTable, type HandlerMap, type OperationId } from '@invoice-api/contract';
import type { RequestContext } from '../../../src/context.js';

function unused(operationId: string): () => Promise<never> {
  return async () => {
    throw new Error(`${operationId} is not used by this test`);
  };
}

/** Every operation of the table failing loudly, so that an operation new to the spec needs no edit here. */
function unusedHandlers(): Record<OperationId, () => Promise<never>> {
  const operationIds = Object.keys(operationTable) as OperationId[];
  return Object.fromEntries(operationIds.map((operationId) => [operationId, unused(operationId)])) as Record<OperationId, () => Promise<never>>;
}

export function stubHandlers(overrides: Partial<HandlerMap<RequestContext>> = {}): HandlerMap<RequestContext> {
  return {
    ...unusedHandlers(),
    searchInvoices: async (request) => ({
      status: 200,
      body: { data: [], pagination: { total: 0, limit: request.body?.limit ?? 50, offset: request.body?.offset ?? 0, has_more: false } },
    }),
    listUsers: async () => ({ status: 200, body: { users: [] } }),
    listCompanyClients: async () => ({ status: 200, body: { company_clients: [] } }),
    listDeliveries: async () => ({ status: 200, body: { deliveries: [] } }),
    getHealth: async (_request, context) =>
      (await context.db.ping()) ? { status: 200, body: { status: 'ok' } } : { status: 503, body: { status: 'unavailable' } },
    ...overrides,
  };
}
