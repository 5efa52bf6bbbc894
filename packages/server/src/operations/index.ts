// Every operation of the spec, keyed by operationId. HandlerMap makes a missing or extra one a
// compile error, so the spec and this map cannot drift apart.
import type { HandlerMap } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import { createDelivery, getDelivery, issueDelivery, listDeliveries, updateDelivery } from './deliveries.js';
import { getCompanyClient, getUser, listCompanyClients, listUsers } from './directory.js';
import { getHealth } from './health.js';
import { createInvoice, getInvoice, searchInvoices, updateInvoice } from './invoices.js';

export function createHandlers(): HandlerMap<RequestContext> {
  return {
    searchInvoices,
    getInvoice,
    createInvoice,
    updateInvoice,
    listUsers,
    getUser,
    listCompanyClients,
    getCompanyClient,
    listDeliveries,
    createDelivery,
    getDelivery,
    updateDelivery,
    issueDelivery,
    getHealth,
  };
}
