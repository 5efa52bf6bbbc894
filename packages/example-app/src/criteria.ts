// Turns what a user typed into the search criteria the API takes. Which fields and operators exist
// comes from the spec (the contract's generated `searchRules`), never from a list kept here.
import { searchRules, type SearchCriterion, type SearchableField, type SearchOperator, type SortField } from '@invoice-api/contract';

export type FieldType = (typeof searchRules.fields)[SearchableField]['type'];

export const searchableFields = Object.keys(searchRules.fields) as SearchableField[];
export const sortFields: readonly SortField[] = searchRules.sortFields;
export const defaultSearch = searchRules.defaults;

export function operatorsOf(field: SearchableField): readonly SearchOperator[] {
  return searchRules.fields[field].operators;
}

/** One criterion row of the form, as typed. */
export interface CriterionInput {
  field: SearchableField;
  operator: SearchOperator;
  value: string;
}

const listOperators: ReadonlySet<SearchOperator> = new Set(['in', 'between']);
const plainNumber = /^-?\d+(?:\.\d+)?$/;

function scalar(type: FieldType, text: string): string | number {
  const trimmed = text.trim();
  return (type === 'integer' || type === 'number') && plainNumber.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The criterion the API gets: numbers for numeric fields, a list for `in` and `between` (typed
 * comma-separated). A value that does not parse is sent as typed, so that the API's own error
 * message says what is wrong with it rather than a second set of rules in the browser.
 */
export function toCriterion({ field, operator, value }: CriterionInput): SearchCriterion {
  const type = searchRules.fields[field].type;
  const typed = listOperators.has(operator)
    ? value.split(',').map((part) => scalar(type, part))
    : // `like` matches a substring: the spaces a user typed are part of it.
      operator === 'like'
      ? value
      : scalar(type, value);
  // The contract's type is the exact per-field union of the spec; what a user typed may not fit it, and
  // sending it anyway is the point (the API names the problem). This is the one place that crosses over.
  return { field, operator, value: typed } as unknown as SearchCriterion;
}

/** A placeholder saying what the value box expects for this field and operator. */
export function valueHint(field: SearchableField, operator: SearchOperator): string {
  const examples: Record<FieldType, string> = {
    integer: '42',
    number: '1000.50',
    date: '2026-03-31',
    'date-time': '2026-03-31T12:00:00Z',
    status: 'paid',
    currency: 'CHF',
    string: 'INV-2026',
  };
  const example = examples[searchRules.fields[field].type];
  if (operator === 'between') return `${example}, ${example}`;
  if (operator === 'in') return `${example}, ...`;
  return example;
}
