// The spec's JSON Schema (enforced by the request validator, as by Prism and any other tool) and the
// service's own criterion checker must refuse the same criteria: the schema is what clients and the
// mock see, the checker is what names the problem precisely. Each field is tried with every operator
// shape and with values of every type, right and wrong, through the real validator over HTTP (the
// stub search handler answers 200 to whatever the validator lets through). The one difference
// allowed is the one JSON Schema cannot state: a `between` whose bounds are reversed.
import { searchRules } from '@invoice-api/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCriterion } from '../../src/search/index.js';
import { useTestDatabase } from '../support/databases.js';
import { errorBody } from '../http/support/responses.js';
import { startTestService, token, type TestService } from '../http/support/service.js';

const scalars: unknown[] = [
  7,
  -3,
  0,
  1.5,
  2 ** 53,
  1e308,
  null,
  true,
  {},
  '7',
  'paid',
  'PAID',
  'CHF',
  'chf',
  'EURO',
  '',
  'x',
  'x'.repeat(201),
  'x'.repeat(1001),
  '2025-01-01',
  '2024-02-29',
  '2025-02-29',
  '2025-2-3',
  '0050-03-01',
  '2025-01-01T10:00Z',
  '2025-01-01t10:00:00.123456z',
  '2025-01-01T10:00:00+02:00',
  '2025-01-01T10:00:00+0200',
  '2025-01-01 10:00:00Z',
  '2025-01-01T24:00Z',
  '2025-01-01T10:00',
];
const lists: unknown[] = [
  [],
  [1],
  [1, 2],
  [2, 1],
  [5, 5],
  [1, 2, 3],
  [1, 'two'],
  Array.from({ length: 1000 }, (_, index) => index),
  Array.from({ length: 1001 }, (_, index) => index),
  ['paid', 'sent'],
  ['CHF', 'EUR'],
  ['a', 'b'],
  ['b', 'a'],
  ['x'.repeat(1001)],
  ['2025-01-01', '2025-01-02'],
  ['2025-01-02', '2025-01-01'],
  ['2025-01-01T10:00Z', '2025-01-02'],
  ['2025-01-01', '2025-02-30'],
  'CHF',
  3,
];
const likeValues: unknown[] = ['', 'x', '50%_off', 'x'.repeat(200), 'x'.repeat(201), ['x'], 5];

/** Every operator shape, each with the values worth trying for it. */
const trials: Array<[operator: string, values: unknown[]]> = [
  ['=', scalars],
  ['>', scalars],
  ['like', likeValues],
  ['in', lists],
  ['between', lists],
  ['~', [1, 'x']],
];

describe('the search schema and the criterion checker refuse the same criteria', () => {
  const database = useTestDatabase('pglite', { name: 'search_schema_agreement' });
  let service: TestService;
  let bearer: string;

  beforeAll(async () => {
    // Hundreds of searches from one token: lift the search limits (they have their own tests).
    service = await startTestService({ database: database(), env: { RATE_LIMIT_SEARCH_PER_MINUTE: '100000', RATE_LIMIT_SEARCH_PER_HOUR: '100000' } });
    bearer = await token();
  });
  afterAll(() => service?.close());

  const search = (body: unknown) =>
    fetch(`${service.url}/api/v1/invoices/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it.each([...Object.keys(searchRules.fields), 'client_name'])('on %s', async (field) => {
    const disagreements: string[] = [];
    let refused = 0;
    let accepted = 0;
    for (const [operator, values] of trials) {
      for (const value of values) {
        const criterion = { field, operator, value };
        const checked = checkCriterion(criterion);
        const reversedBetween = 'problem' in checked && checked.problem.issue.includes('low <= high');
        const response = await search({ criteria: [criterion] });
        const schemaAccepts = response.status === 200;
        const shown = JSON.stringify(criterion).slice(0, 120);
        if (!schemaAccepts) {
          refused += 1;
          const details = (await errorBody(response)).details;
          // The 400 the validator's refusal becomes still names the criterion by its field, as sent.
          if (response.status !== 400 || details?.field !== field) disagreements.push(`${shown}: ${response.status} ${JSON.stringify(details)}`);
        } else {
          accepted += 1;
          await response.body?.cancel();
        }
        const checkerAccepts = 'criterion' in checked;
        if (schemaAccepts !== checkerAccepts && !(reversedBetween && schemaAccepts)) {
          disagreements.push(
            `${shown}: schema ${schemaAccepts ? 'accepts' : 'refuses'}, checker ${checkerAccepts ? 'accepts' : `refuses (${'problem' in checked ? checked.problem.issue : ''})`}`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
    // Both verdicts occur for a searchable field; an unknown field is always refused.
    expect(refused).toBeGreaterThan(0);
    expect(accepted > 0).toBe(field in searchRules.fields);
  });
});
