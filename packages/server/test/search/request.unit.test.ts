import { searchRules } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { firstSearchProblem, parseSearchRequest } from '../../src/search/index.js';

/** The 400 details parseSearchRequest throws for `body`. */
function detailsOf(body: unknown): { field: string; issue: string } | undefined {
  try {
    parseSearchRequest(body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && error.code === 'invalid_request') return error.details;
    throw error;
  }
  return undefined;
}

const criterion = (field: unknown, operator: unknown, value: unknown) => ({ field, operator, value });

describe('parseSearchRequest: defaults', () => {
  it('applies every default for an absent or empty body', () => {
    const defaults = { limit: 50, offset: 0, orderBy: 'created_at', direction: 'desc', criteria: [] };
    expect(parseSearchRequest(undefined)).toEqual(defaults);
    expect(parseSearchRequest({})).toEqual(defaults);
    expect(searchRules.defaults).toMatchObject({ limit: 50, offset: 0, order_by: 'created_at', order_direction: 'desc' });
  });

  it('keeps what the body says', () => {
    expect(parseSearchRequest({ limit: 1000, offset: 2147483647, order_by: 'client_name', order_direction: 'asc' })).toMatchObject({
      limit: 1000,
      offset: 2147483647,
      orderBy: 'client_name',
      direction: 'asc',
    });
  });
});

describe('parseSearchRequest: top-level properties', () => {
  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 1001 }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ offset: -1 }, 'offset'],
    [{ offset: 2147483648 }, 'offset'],
    [{ order_by: 'description' }, 'order_by'],
    [{ order_direction: 'up' }, 'order_direction'],
    [{ page: 2 }, 'page'],
    [{ criteria: {} }, 'criteria'],
    [{ criteria: Array.from({ length: 21 }, () => criterion('status', '=', 'paid')) }, 'criteria'],
  ])('rejects %j naming %s (no clamping)', (body, field) => {
    expect(detailsOf(body)?.field).toBe(field);
  });

  it('accepts 20 criteria', () => {
    expect(parseSearchRequest({ criteria: Array.from({ length: 20 }, () => criterion('status', '=', 'paid')) }).criteria).toHaveLength(20);
  });

  it('rejects a body that is not an object', () => {
    expect(detailsOf([1, 2])?.field).toBe('body');
  });
});

describe('parseSearchRequest: criteria', () => {
  it('names an unknown field as sent', () => {
    expect(detailsOf({ criteria: [criterion('client_name', '=', 'x')] })).toMatchObject({
      field: 'client_name',
      issue: expect.stringContaining('not a searchable field'),
    });
    expect(detailsOf({ criteria: [criterion('Amount', '=', 1)] })?.field).toBe('Amount');
  });

  it.each(
    Object.entries(searchRules.fields).flatMap(([field, rule]) =>
      searchRules.operators.filter((operator) => !(rule.operators as readonly string[]).includes(operator)).map((operator) => [field, operator] as const),
    ),
  )('rejects %s with operator %s', (field, operator) => {
    const value = operator === 'in' ? ['x'] : operator === 'between' ? ['a', 'b'] : 'x';
    expect(detailsOf({ criteria: [criterion(field, operator, value)] })).toMatchObject({ field, issue: expect.stringContaining('does not allow operator') });
  });

  it('rejects an unknown operator', () => {
    expect(detailsOf({ criteria: [criterion('amount', '~', 1)] })).toMatchObject({ field: 'amount', issue: expect.stringContaining('unknown operator') });
  });

  it.each([
    ['client_id', '=', 1.5],
    ['client_id', '=', '7'],
    ['amount', '>', '10'],
    ['amount', '=', [1]],
    ['due_date', '=', '2025-02-30'],
    ['due_date', '=', '2025-2-3'],
    ['due_date', '<', '2025-01-01T00:00:00Z'],
    ['created_at', '>=', '2025-01-01 10:00'],
    ['created_at', '>=', '2025-01-01T25:00:00Z'],
    ['created_at', '>=', 'yesterday'],
    ['status', '=', 'open'],
    ['status', '=', 'PAID'],
    ['currency', '=', 'chf'],
    ['currency', '=', 'EURO'],
    ['invoice_number', '=', 12],
    ['description', '=', ['x']],
  ])('rejects %s %s %j as the wrong value type or shape', (field, operator, value) => {
    expect(detailsOf({ criteria: [criterion(field, operator, value)] })?.field).toBe(field);
  });

  it('accepts each value type in its form', () => {
    const parsed = parseSearchRequest({
      criteria: [
        criterion('client_id', '=', 7),
        criterion('amount', '>=', 19.99),
        criterion('due_date', '=', '2024-02-29'),
        criterion('created_at', '>=', '2025-01-01'),
        criterion('updated_at', '<', '2025-01-01T10:00:00.5+02:00'),
        criterion('status', 'in', ['paid', 'overdue']),
        criterion('currency', '!=', 'CHF'),
        criterion('description', 'like', '50%_off'),
      ],
    });
    expect(parsed.criteria.map((entry) => entry.value)).toEqual([
      7,
      19.99,
      '2024-02-29',
      '2025-01-01T00:00:00.000Z',
      '2025-01-01T08:00:00.500Z',
      ['paid', 'overdue'],
      'CHF',
      '50%_off',
    ]);
  });

  it('takes a date for date-time fields as 00:00:00Z of that day', () => {
    expect(parseSearchRequest({ criteria: [criterion('updated_at', 'between', ['2025-03-01', '2025-03-02T00:00:00Z'])] }).criteria[0]!.value).toEqual([
      '2025-03-01T00:00:00.000Z',
      '2025-03-02T00:00:00.000Z',
    ]);
  });

  it('bounds like to 1..200 characters', () => {
    expect(detailsOf({ criteria: [criterion('description', 'like', '')] })?.field).toBe('description');
    expect(detailsOf({ criteria: [criterion('description', 'like', 'x'.repeat(201))] })?.field).toBe('description');
    expect(detailsOf({ criteria: [criterion('description', 'like', 'x'.repeat(200))] })).toBeUndefined();
    expect(detailsOf({ criteria: [criterion('description', 'like', ['x'])] })?.field).toBe('description');
  });

  it('bounds in to 1..1000 elements of the field type', () => {
    expect(detailsOf({ criteria: [criterion('client_id', 'in', [])] })?.field).toBe('client_id');
    expect(
      detailsOf({
        criteria: [
          criterion(
            'client_id',
            'in',
            Array.from({ length: 1001 }, (_, index) => index + 1),
          ),
        ],
      })?.field,
    ).toBe('client_id');
    expect(
      detailsOf({
        criteria: [
          criterion(
            'client_id',
            'in',
            Array.from({ length: 1000 }, (_, index) => index + 1),
          ),
        ],
      }),
    ).toBeUndefined();
    expect(detailsOf({ criteria: [criterion('client_id', 'in', 3)] })?.field).toBe('client_id');
    expect(detailsOf({ criteria: [criterion('client_id', 'in', [1, 'two'])] })).toMatchObject({
      field: 'client_id',
      issue: expect.stringContaining('value[1]'),
    });
  });

  it('needs exactly two between values, low <= high, for numbers, dates and timestamps', () => {
    expect(detailsOf({ criteria: [criterion('amount', 'between', [1])] })?.field).toBe('amount');
    expect(detailsOf({ criteria: [criterion('amount', 'between', [1, 2, 3])] })?.field).toBe('amount');
    expect(detailsOf({ criteria: [criterion('amount', 'between', [10, 9.99])] })).toMatchObject({
      field: 'amount',
      issue: expect.stringContaining('low <= high'),
    });
    expect(detailsOf({ criteria: [criterion('amount', 'between', [9, 10])] })).toBeUndefined();
    expect(detailsOf({ criteria: [criterion('amount', 'between', [5, 5])] })).toBeUndefined();
    expect(detailsOf({ criteria: [criterion('due_date', 'between', ['2025-02-01', '2025-01-31'])] })?.field).toBe('due_date');
    // 10:00+02:00 is 08:00Z: before 09:00Z although its text sorts after.
    expect(detailsOf({ criteria: [criterion('created_at', 'between', ['2025-01-01T10:00:00+02:00', '2025-01-01T09:00:00Z'])] })).toBeUndefined();
    expect(detailsOf({ criteria: [criterion('created_at', 'between', ['2025-01-01T09:00:00Z', '2025-01-01T10:00:00+02:00'])] })?.field).toBe('created_at');
  });

  it('reports a criterion without a usable field name by its path', () => {
    expect(detailsOf({ criteria: [criterion('status', '=', 'paid'), { operator: '=', value: 1 }] })?.field).toBe('criteria[1].field');
    expect(detailsOf({ criteria: [criterion(7, '=', 1)] })?.field).toBe('criteria[0].field');
    expect(detailsOf({ criteria: [criterion('status', '=', 'paid'), criterion('status', '=', 'paid'), 'status=paid'] })?.field).toBe('criteria[2]');
  });

  it('rejects a criterion missing its operator or value, or with an extra property, naming its field', () => {
    expect(detailsOf({ criteria: [{ field: 'amount', value: 1 }] })).toMatchObject({ field: 'amount', issue: expect.stringContaining('operator') });
    expect(detailsOf({ criteria: [{ field: 'amount', operator: '=' }] })).toMatchObject({ field: 'amount', issue: expect.stringContaining('value') });
    expect(detailsOf({ criteria: [{ field: 'amount', operator: '=', value: 1, negate: true }] })).toMatchObject({
      field: 'amount',
      issue: expect.stringContaining('negate'),
    });
  });

  it('names the first problem in body order', () => {
    expect(detailsOf({ limit: 0, criteria: [criterion('nope', '=', 1)] })?.field).toBe('limit');
    expect(detailsOf({ criteria: [criterion('nope', '=', 1)], limit: 0 })?.field).toBe('nope');
    expect(detailsOf({ criteria: [criterion('amount', '=', 1), criterion('status', 'like', 'x'), criterion('bogus', '=', 1)] })?.field).toBe('status');
  });
});

describe('firstSearchProblem', () => {
  it('names an unknown top-level property reported by the schema validator', () => {
    expect(firstSearchProblem({ limit: 10, foo: 1 }, [{ path: ['foo'], message: 'must NOT have additional properties' }])).toEqual({
      field: 'foo',
      issue: 'is not a known property',
    });
  });

  it("leaves a property the body's schema does not have to the schema: the export's limit is unknown, not out of range", () => {
    const unknown = [{ path: ['limit'], message: 'must NOT have additional properties' }];
    expect(firstSearchProblem({ limit: 5000 }, unknown, ['order_by', 'order_direction', 'criteria'])).toEqual({
      field: 'limit',
      issue: 'is not a known property',
    });
    expect(firstSearchProblem({ limit: 5000 }, [])).toEqual({ field: 'limit', issue: 'must be between 1 and 1000' });
  });

  it('merges schema and semantic problems in body order', () => {
    const body = { criteria: [criterion('amount', 'like', 'x')], limit: 5000 };
    const schema = [{ path: ['limit'], message: 'must be <= 1000' }];
    expect(firstSearchProblem(body, schema)?.field).toBe('amount');
    const reordered = { limit: 5000, criteria: [criterion('amount', 'like', 'x')] };
    expect(firstSearchProblem(reordered, schema)).toEqual({ field: 'limit', issue: 'must be between 1 and 1000' });
  });

  it('keeps a schema problem the semantic checker does not know, naming the criterion by its field', () => {
    const body = { criteria: [criterion('status', '=', 'paid'), criterion('description', '=', 'x'.repeat(1001))] };
    const schema = [{ path: ['criteria', 1, 'value'], message: 'must NOT have more than 1000 characters' }];
    expect(firstSearchProblem(body, schema)).toEqual({ field: 'description', issue: 'must NOT have more than 1000 characters' });
  });

  it('explains an enum failure of a criterion field in its own words, naming the field as sent', () => {
    const body = { criteria: [criterion('colour', '=', 'red')] };
    const schema = [{ path: ['criteria', 0, 'field'], message: 'must be equal to one of the allowed values' }];
    expect(firstSearchProblem(body, schema)).toMatchObject({ field: 'colour', issue: expect.stringContaining('not a searchable field') });
  });

  it('uses the path where a criterion has no field name', () => {
    const body = { criteria: [{ operator: '=', value: 1 }] };
    expect(firstSearchProblem(body, [{ path: ['criteria', 0, 'field'], message: "must have required property 'field'" }])?.field).toBe('criteria[0].field');
  });

  it('finds semantic problems when the schema found none', () => {
    expect(firstSearchProblem({ criteria: [criterion('client_id', 'between', [9, 3])] }, [])?.field).toBe('client_id');
    expect(firstSearchProblem({ criteria: [criterion('client_id', 'between', [3, 9])] }, [])).toBeUndefined();
    expect(firstSearchProblem(undefined, [])).toBeUndefined();
  });

  it('leaves a body that is not an object to the caller', () => {
    expect(firstSearchProblem('text', [{ path: [], message: 'must be object' }])).toBeUndefined();
  });
});
