// Requests generated from the bundled spec, valid and deliberately invalid, against every operation
// of the running service (PostgreSQL, rate limits raised). Every answer must be documented for its
// operation, match its schema, and never be a 5xx; invalid requests get 400 invalid_request.
// Replay a failure with FUZZ_SEED=<seed printed below>.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationTable, type OperationId } from '@invoice-api/contract';
import { componentSchema, invalidBodyArbitrary, resolveRef, validArbitrary, type KnownIds } from './support/arbitraries.js';
import { checkAgainstSpec } from './support/contract.js';
import { useServiceOnPostgres } from './support/fixtures.js';
import { call } from './support/http.js';
import { token } from './support/tokens.js';

const fixture = useServiceOnPostgres('robust_fuzz');
const seed = process.env['FUZZ_SEED'] === undefined ? Date.now() % 2_147_483_647 : Number(process.env['FUZZ_SEED']);
console.info(`fuzz seed: ${seed} (replay with FUZZ_SEED=${seed})`);

/** Runs per operation: the search, the richest input, gets the most. */
const runsFor = (operationId: OperationId): number => (operationId === 'searchInvoices' ? 500 : operationId === 'getHealth' ? 20 : 120);

const bodySchemaNames: Partial<Record<OperationId, string>> = {
  searchInvoices: 'InvoiceSearchRequest',
  createInvoice: 'InvoiceCreate',
  updateInvoice: 'InvoiceUpdate',
  createDelivery: 'DeliveryCreate',
  updateDelivery: 'DeliveryUpdate',
  issueDelivery: 'DeliveryIssue',
};

// `1e3` is left out: the validator reads it as 1000, which is a positive integer in another spelling.
const invalidIds = ['0', '-1', 'abc', '1.5', '99999999999999999999', "1'%20or%20'1'='1", '%00', '__proto__'];

interface GeneratedRequest {
  path: string;
  body: unknown;
  /** Why the request is invalid, or undefined when it is valid. */
  invalid: string | undefined;
  /** The body's own mutation, when it has one. */
  bodyInvalid: string | undefined;
  /** A token without the operation's scope: the answer must be 403 whatever the body. */
  withoutScope: boolean;
}

function pathArbitrary(operationId: OperationId, known: KnownIds): fc.Arbitrary<{ path: string; invalid: string | undefined }> {
  const template: string = operationTable[operationId].path;
  const parameter = /\{(\w+)\}/.exec(template)?.[1];
  if (parameter === undefined) {
    if (operationId !== 'listDeliveries') return fc.constant({ path: template, invalid: undefined });
    const limit = componentSchemaParameter('limit');
    const offset = componentSchemaParameter('offset');
    return fc.oneof(
      fc.record({ limit: fc.option(validArbitrary(limit, known)), offset: fc.option(validArbitrary(offset, known)) }).map(({ limit: l, offset: o }) => ({
        path: `${template}?${new URLSearchParams({ ...(l === null ? {} : { limit: String(l) }), ...(o === null ? {} : { offset: String(o) }) }).toString()}`,
        invalid: undefined,
      })),
      fc
        .constantFrom('limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'offset=2147483648', 'limit=1.5')
        .map((query) => ({ path: `${template}?${query}`, invalid: `query ${query}` })),
    );
  }
  const ids: Record<string, number[]> = { invoice_id: known.invoiceIds, delivery_id: known.deliveryIds, client_id: known.clientIds, user_id: known.userIds };
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...(ids[parameter] ?? [1])).map((id) => ({ path: template.replace(`{${parameter}}`, String(id)), invalid: undefined })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 2_147_483_647 }).map((id) => ({ path: template.replace(`{${parameter}}`, String(id)), invalid: undefined })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...invalidIds).map((id) => ({ path: template.replace(`{${parameter}}`, id), invalid: `path ${parameter}=${id}` })),
    },
  );
}

function componentSchemaParameter(name: string): Record<string, unknown> {
  return resolveRef({ $ref: `#/components/parameters/${name}` })['schema'] as Record<string, unknown>;
}

function requestArbitrary(operationId: OperationId, known: KnownIds): fc.Arbitrary<GeneratedRequest> {
  const schemaName = bodySchemaNames[operationId];
  const withoutScope = operationTable[operationId].authenticated ? fc.boolean().map((flag) => flag && Math.random() < 0.1) : fc.constant(false);
  const body: fc.Arbitrary<{ body: unknown; invalid: string | undefined }> =
    schemaName === undefined
      ? fc.constant({ body: undefined, invalid: undefined })
      : fc.oneof(
          { weight: 3, arbitrary: validArbitrary(componentSchema(schemaName), known).map((value) => ({ body: value, invalid: undefined })) },
          {
            weight: 2,
            arbitrary: invalidBodyArbitrary(componentSchema(schemaName), known).map((mutation) => ({ body: mutation.body, invalid: mutation.kind })),
          },
        );
  return fc.tuple(pathArbitrary(operationId, known), body, withoutScope).map(([path, generated, noScope]) => ({
    path: path.path,
    body: generated.body,
    invalid: path.invalid ?? generated.invalid,
    bodyInvalid: generated.invalid,
    withoutScope: noScope,
  }));
}

describe('fuzzing every operation from the spec', () => {
  // Operations whose request body is JSON, or that take none: the generator writes JSON bodies. An
  // upload (multipart) without its body is 415 before anything else is looked at; its refusals are
  // tested with real files in packages/server/test/operations/attachments.test.ts.
  const operationIds = (Object.keys(operationTable) as OperationId[]).filter((operationId) =>
    (operationTable[operationId].requestMedia?.media ?? []).every((facts) => facts.kind === 'json'),
  );

  it.each(operationIds)('%s: every answer is documented, matches its schema, and is never a 5xx', async (operationId) => {
    const { service, postgres } = fixture();
    const ids = async (sql: string): Promise<number[]> => (await postgres.query<{ id: string }>(sql)).map((row) => Number(row.id));
    const known: KnownIds = {
      clientIds: await ids('select id from company_clients where account_id = 1 order by id limit 20'),
      deliveryIds: await ids('select id from deliveries where account_id = 1 order by id limit 40'),
      invoiceIds: await ids('select id from invoices where account_id = 1 order by id limit 40'),
      userIds: await ids('select id from users order by id'),
    };
    const operation = operationTable[operationId];
    const fullToken = await token();
    const noScopeToken = await token({ scopes: [] });

    await fc.assert(
      fc.asyncProperty(requestArbitrary(operationId, known), async (request) => {
        const answer = await call(service.url, operation.method, request.path, {
          ...(operation.authenticated ? { token: request.withoutScope ? noScopeToken : fullToken } : {}),
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        const context = `${operation.method} ${request.path} ${JSON.stringify(request.body)?.slice(0, 400)} -> ${answer.status} ${answer.text.slice(0, 400)}`;
        expect(answer.status, context).toBeLessThan(500);
        const verdict = checkAgainstSpec(operationId, answer.status, answer.body, answer.headers.get('content-type'));
        expect(verdict.errors, context).toEqual([]);
        if (request.withoutScope) {
          expect(answer.status, context).toBe(403);
        } else if (request.invalid !== undefined) {
          expect(answer.status, `${request.invalid}: ${context}`).toBe(400);
          expect((answer.body as { error: string }).error, context).toBe('invalid_request');
          // A body that is not a JSON object has no field to name; every other invalid search part does.
          if ((operationId === 'searchInvoices' || request.invalid.startsWith('path ')) && request.bodyInvalid !== 'not an object') {
            expect(typeof (answer.body as { details?: { field?: unknown } }).details?.field, context).toBe('string');
          }
          if (request.invalid.startsWith('missing ') && request.bodyInvalid === request.invalid)
            expect((answer.body as { message: string }).message, context).toContain(request.invalid.slice('missing '.length));
        }
      }),
      { seed, numRuns: runsFor(operationId), endOnFailure: true },
    );
  });
});
