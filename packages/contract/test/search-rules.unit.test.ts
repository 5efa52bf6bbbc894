// The generator of the search rules (scripts/lib/search-rules.mjs) reads the plain JSON Schema and
// refuses a spec whose parts disagree, rather than handing the service rules the schema does not state.
import { describe, expect, it } from 'vitest';
import { searchRules as derive } from '../../../scripts/lib/search-rules.mjs';
import { loadSpec, searchRules } from '../src/index.js';

type Schemas = Record<string, Record<string, unknown>>;

/** A deep copy of the bundled spec's schemas with one edit applied. */
function specWith(edit: (schemas: Schemas) => void): { components: { schemas: Schemas } } {
  const schemas = structuredClone(loadSpec().components['schemas']) as Schemas;
  edit(schemas);
  return { components: { schemas } };
}

function branches(schemas: Schemas, name: string): Array<{ properties: Record<string, Record<string, unknown>> }> {
  return schemas[name]?.['oneOf'] as Array<{ properties: Record<string, Record<string, unknown>> }>;
}

describe('search rules generator', () => {
  it('derives what the generated module holds', () => {
    expect(derive(loadSpec() as never)).toEqual(searchRules);
    expect(searchRules.valueRules).toEqual({
      like: { minLength: 1, maxLength: 200 },
      in: { minItems: 1, maxItems: 1000 },
      between: { minItems: 2, maxItems: 2 },
    });
    expect(searchRules.valueTypes.status.enum).toEqual(['draft', 'sent', 'paid', 'overdue', 'cancelled']);
    expect(searchRules.limit).toEqual({ minimum: 1, maximum: 1000 });
  });

  it('finds every body of search criteria, the export’s without the search’s paging', () => {
    expect(searchRules.criteriaBodies).toEqual({
      InvoiceSearchRequest: ['limit', 'offset', 'order_by', 'order_direction', 'criteria', 'cursor'],
      InvoiceExportRequest: ['order_by', 'order_direction', 'criteria'],
    });
  });

  it('refuses a body of search criteria with a property the search rules do not cover', () => {
    const spec = specWith((schemas) => {
      (schemas['InvoiceExportRequest']!['properties'] as Record<string, unknown>)['format'] = { type: 'string' };
    });
    expect(() => derive(spec as never)).toThrow(/InvoiceExportRequest takes search criteria but also format/);
  });

  it.each([
    [
      'a searchable field without a criterion schema',
      (schemas: Schemas) => (schemas['SearchableField']!['enum'] as string[]).push('client_name'),
      /differ from SearchableField/,
    ],
    [
      'an in list bounded differently for one field',
      (schemas: Schemas) => {
        const inBranch = branches(schemas, 'AmountCriterion').find((branch) => branch.properties['operator']?.['const'] === 'in');
        inBranch!.properties['value']!['maxItems'] = 500;
      },
      /in bounds/,
    ],
    [
      'an operator the field enum lists but no branch takes',
      (schemas: Schemas) => (schemas['StatusCriterion']!['properties'] as Record<string, { enum: string[] }>)['operator']!.enum.push('like'),
      /differ from its operator enum/,
    ],
    [
      'a value schema the service has no reader for',
      (schemas: Schemas) => {
        for (const branch of branches(schemas, 'AmountCriterion')) {
          const value = branch.properties['value']!;
          if (value['$ref'] !== undefined) value['$ref'] = '#/components/schemas/Money';
          else if (value['items'] !== undefined) value['items'] = { $ref: '#/components/schemas/Money' };
        }
      },
      /Money is not one of/,
    ],
    [
      'an operator SearchOperator lacks',
      (schemas: Schemas) => (schemas['SearchOperator']!['enum'] as string[]).splice((schemas['SearchOperator']!['enum'] as string[]).indexOf('between'), 1),
      /SearchOperator lacks/,
    ],
  ])('fails on %s', (_name, edit, message) => {
    expect(() => derive(specWith(edit))).toThrow(message);
  });
});
