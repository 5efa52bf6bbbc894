// Small handler maps for testing the HTTP layer on its own: every operation is present (the type
// demands it), the few a test uses answer valid bodies, the rest fail loudly if a test reaches them.
import type { HandlerMap } from '@invoice-api/contract';
import type { RequestContext } from '../../../src/context.js';

function unused(operationId: string): () => Promise<never> {
  return async () => {
    throw new Error(`${operationId} is not used by this test`);
  };
}

export function stubHandlers(overrides: Partial<HandlerMap<RequestContext>> = {}): HandlerMap<RequestContext> {
  return {
    searchInvoices: async (request) => ({
      status: 200,
      body: { data: [], pagination: { total: 0, limit: request.body?.limit ?? 50, offset: request.body?.offset ?? 0, has_more: false } },
    }),
    createInvoice: unused('createInvoice'),
    getInvoice: unused('getInvoice'),
    updateInvoice: unused('updateInvoice'),
    listUsers: async () => ({ status: 200, body: { users: [] } }),
    getUser: unused('getUser'),
    listCompanyClients: async () => ({ status: 200, body: { company_clients: [] } }),
    getCompanyClient: unused('getCompanyClient'),
    createDelivery: unused('createDelivery'),
    listDeliveries: async () => ({ status: 200, body: { deliveries: [] } }),
    getDelivery: unused('getDelivery'),
    updateDelivery: unused('updateDelivery'),
    issueDelivery: unused('issueDelivery'),
    getHealth: async (_request, context) =>
      (await context.db.ping()) ? { status: 200, body: { status: 'ok' } } : { status: 503, body: { status: 'unavailable' } },
    ...overrides,
  };
}
