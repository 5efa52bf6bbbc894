// Deliberately broken variants of the service, for the test that proves the stateful run finds bugs
// that live between operations. They exist only in this test: each wraps the real handlers (or, for
// the replay, swaps one function of the idempotency module through vi.mock in planted-bugs.test.ts)
// and is switched on for one run at a time. None of them fails a single-request test: each needs an
// earlier call to set the stage.
import type { HandlerMap } from '@invoice-api/contract';
import type { RequestContext } from '../../../server/src/context.js';
import { ApiError } from '../../../server/src/errors.js';
import { createHandlers } from '../../../server/src/operations/index.js';

import { planted } from './planted-switch.js';

/**
 * The real handlers with the handler-level bugs wired in (each active only while switched on):
 * - after an update that sets a status, the account's searches count one invoice too many;
 * - an update of an issued delivery is applied anyway (the row is turned back into a draft for the
 *   update and marked issued again afterwards);
 * - an invoice that has left draft (sent, paid...) is removed anyway (turned back into a draft, then
 *   removed), where the service must answer 409 invoice_locked and keep the record.
 */
export function handlersWithPlantedBugs(): HandlerMap<RequestContext> {
  const real = createHandlers();
  const accountsWithStatusChange = new Set<number>();
  return {
    ...real,
    updateInvoice: async (request, context) => {
      const answer = await real.updateInvoice(request, context);
      if (planted.bug === 'search total off by one after a status change' && request.body.status !== undefined && context.caller !== undefined) {
        accountsWithStatusChange.add(context.caller.accountId);
      }
      return answer;
    },
    searchInvoices: async (request, context) => {
      const answer = await real.searchInvoices(request, context);
      const drifted = planted.bug === 'search total off by one after a status change' && accountsWithStatusChange.has(context.caller?.accountId ?? -1);
      if (!drifted || answer.status !== 200) return answer;
      return { ...answer, body: { ...answer.body, pagination: { ...answer.body.pagination, total: answer.body.pagination.total + 1 } } };
    },
    deleteInvoice: async (request, context) => {
      try {
        return await real.deleteInvoice(request, context);
      } catch (error) {
        const locked = error instanceof ApiError && error.code === 'invoice_locked';
        if (planted.bug !== 'removal allowed on an invoice that left draft' || !locked || context.caller === undefined) throw error;
        await context.db.db
          .updateTable('invoices')
          .where('id', '=', request.params.invoice_id)
          .where('account_id', '=', context.caller.accountId)
          .set({ status: 'draft' })
          .execute();
        return real.deleteInvoice(request, context);
      }
    },
    updateDelivery: async (request, context) => {
      try {
        return await real.updateDelivery(request, context);
      } catch (error) {
        const alreadyIssued = error instanceof ApiError && error.code === 'already_issued';
        if (planted.bug !== 'update allowed on an issued delivery' || !alreadyIssued) throw error;
        const row = context.db.db.updateTable('deliveries').where('id', '=', request.params.delivery_id);
        await row.set({ status: 'draft' }).execute();
        try {
          return await real.updateDelivery(request, context);
        } finally {
          await row.set({ status: 'issued' }).execute();
        }
      }
    },
  };
}
