// The generated operation table holds every fact the service reads, derived from the spec once; a
// change in a scratch copy of the spec changes the fact, so nothing downstream needs the spec itself.
import { describe, expect, it } from 'vitest';
import { operationTable as buildTable } from '../../../scripts/lib/operation-table.mjs';
import { loadSpec, operationTable } from '../src/index.js';

/** A deep copy of the bundled spec to edit. */
function scratchSpec(): ReturnType<typeof loadSpec> {
  return structuredClone(loadSpec());
}

function operationObject(spec: ReturnType<typeof loadSpec>, path: string, method: string): Record<string, unknown> {
  const operation = spec.paths[path]?.[method];
  if (typeof operation !== 'object' || operation === null) throw new Error(`no ${method} ${path} in the spec`);
  return operation as Record<string, unknown>;
}

describe('the generated operation table', () => {
  it('is what the generator makes of the bundled spec', () => {
    expect(buildTable(loadSpec())).toEqual(operationTable);
  });

  it('takes the rate-limit group from x-rate-limit: search for the search, none for the health check', () => {
    expect(operationTable.searchInvoices.rateLimitGroup).toBe('search');
    expect(operationTable.getHealth.rateLimitGroup).toBe('none');
    expect(operationTable.getInvoice.rateLimitGroup).toBe('standard');
  });

  it('follows a changed x-rate-limit, and refuses an operation without one, naming it', () => {
    const spec = scratchSpec();
    operationObject(spec, '/api/v1/users', 'get')['x-rate-limit'] = 'bulk';
    expect(buildTable(spec).listUsers?.rateLimitGroup).toBe('bulk');
    delete operationObject(spec, '/api/v1/users', 'get')['x-rate-limit'];
    expect(() => buildTable(spec)).toThrow(/listUsers.*x-rate-limit/);
  });

  it('describes path ids by segment and maximum', () => {
    expect(operationTable.getInvoice.pathParams).toEqual([{ name: 'invoice_id', segment: 4, id: true, maximum: 2147483647 }]);
    expect(operationTable.getDelivery.pathParams).toEqual([{ name: 'delivery_id', segment: 3, id: true, maximum: 2147483647 }]);
    expect(operationTable.listUsers.pathParams).toEqual([]);
  });

  it('derives the id rule from the parameter schema: a string parameter is no id, a lower maximum bounds it', () => {
    const spec = scratchSpec();
    const parameters = spec.components.parameters as Record<string, { schema: unknown }>;
    parameters.user_id!.schema = { type: 'string' };
    parameters.invoice_id!.schema = { type: 'integer', minimum: 1, maximum: 999 };
    const table = buildTable(spec);
    expect(table.getUser?.pathParams).toEqual([{ name: 'user_id', segment: 4, id: false }]);
    expect(table.getInvoice?.pathParams).toEqual([{ name: 'invoice_id', segment: 4, id: true, maximum: 999 }]);
  });

  it('gives query parameters with their defaults', () => {
    expect(operationTable.listDeliveries.queryParams).toEqual([
      { name: 'limit', required: false, default: 50, style: 'form', explode: true, shape: 'scalar' },
      { name: 'offset', required: false, default: 0, style: 'form', explode: true, shape: 'scalar' },
    ]);
  });

  it('says whether a body is taken, required and an object', () => {
    expect(operationTable.getInvoice.body).toBeNull();
    expect(operationTable.searchInvoices.body).toMatchObject({ required: false, object: true });
    expect(operationTable.issueDelivery.body).toMatchObject({ required: true, object: true });
  });

  it('precomputes the body bounds: maxItems along the arrays, the known names of closed objects, nothing else', () => {
    expect(operationTable.issueDelivery.body.bounds).toEqual({
      closed: true,
      known: ['delivery_id', 'contact_id', 'delivery_date', 'items'],
      properties: { items: { maxItems: 500, items: { closed: true, known: ['item_id', 'quantity', 'unit_price'] } } },
    });
  });

  it('refuses a recursive request body schema, which bounds could not describe', () => {
    const spec = scratchSpec();
    const schemas = spec.components.schemas as Record<string, Record<string, unknown>>;
    schemas.DeliveryItemInput = {
      ...schemas.DeliveryItemInput,
      properties: { parts: { type: 'array', items: { $ref: '#/components/schemas/DeliveryItemInput' } } },
    };
    expect(() => buildTable(spec)).toThrow(/recursive/);
  });

  it('lists the documented statuses and the success status', () => {
    expect(operationTable.createDelivery.successStatus).toBe(201);
    expect(operationTable.createDelivery.statuses).toEqual([201, 400, 401, 403, 409, 413, 415, 422, 429, 500, 503]);
  });
});
