// Type-level tests of the MSW handlers' overrides: `pnpm typecheck` compiles this file, so each
// `@ts-expect-error` must be a real error. A body must match its status's schema; a status must be
// one the spec documents for the operation.
import type { HttpHandler } from 'msw';
import { expectTypeOf } from 'vitest';
import type { Invoice } from '@invoice-api/contract';
import { createHandlers, operationHandlers, type AnswerBody, type DocumentedStatus } from '../../src/msw/index.js';

declare const invoice: Invoice;

expectTypeOf<DocumentedStatus<'getHealth'>>().toEqualTypeOf<200 | 503>();
expectTypeOf<AnswerBody<'getInvoice', 200>>().toEqualTypeOf<{ invoice: Invoice }>();

expectTypeOf(
  createHandlers({
    overrides: {
      getInvoice: { status: 200, body: { invoice } },
      searchInvoices: { status: 503, headers: { 'Retry-After': '1' } },
      listUsers: { status: 403, body: { error: 'forbidden', message: 'No.' } },
      getHealth: async () => ({ status: 503, body: { status: 'unavailable' } }),
      createInvoice: () => new Response(null, { status: 201 }),
    },
  }),
).toEqualTypeOf<HttpHandler[]>();

createHandlers({
  overrides: {
    // @ts-expect-error a 200 of getInvoice is `{ invoice }`, not the invoice itself
    getInvoice: { status: 200, body: invoice },
  },
});

createHandlers({
  overrides: {
    // @ts-expect-error an error answer's body is the spec's Error: `error` is an ErrorCode, `message` is required
    searchInvoices: { status: 400, body: { error: 'bad' } },
  },
});

createHandlers({
  overrides: {
    // @ts-expect-error the spec documents no 418 for getInvoice
    getInvoice: { status: 418 },
  },
});

createHandlers({
  overrides: {
    // @ts-expect-error a resolver answers a documented status too
    getHealth: () => ({ status: 200, body: { invoice } }),
  },
});

// @ts-expect-error the factory's override is the operation's own: getDelivery's 200 is a delivery
operationHandlers.getDelivery({ override: { status: 200, body: { invoice } } });

// @ts-expect-error no such operation
createHandlers({ overrides: { getInvoices: { status: 200 } } });
