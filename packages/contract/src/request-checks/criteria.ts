// Checks one search criterion against the allow-list (`searchRules`): the field is
// searchable, the operator is allowed for it, the value has the field's type and the operator's shape.
// Returns the parsed criterion or the first problem, located at the key it concerns. Shared by the
// service and the client's MSW handlers (no Node API), so both refuse a criterion in the same words.
import { searchRules } from '../../generated/search-rules.js';
import type { SearchableField, SearchOperator } from '../schemas.js';
import { valueTypes, type SearchValue } from './value-types.js';

export type ParsedCriterion =
  | { field: SearchableField; operator: Exclude<SearchOperator, 'like' | 'in' | 'between'>; value: SearchValue }
  | { field: SearchableField; operator: 'like'; value: string }
  | { field: SearchableField; operator: 'in'; value: SearchValue[] }
  | { field: SearchableField; operator: 'between'; value: [SearchValue, SearchValue] };

export interface CriterionProblem {
  /** The key of the criterion the problem is about; undefined when the criterion itself is wrong. */
  key: string | undefined;
  issue: string;
}

const criterionKeys = ['field', 'operator', 'value'] as const;
const searchableFields = Object.keys(searchRules.fields) as SearchableField[];

export function isSearchableField(name: unknown): name is SearchableField {
  return typeof name === 'string' && Object.hasOwn(searchRules.fields, name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkCriterion(criterion: unknown): { criterion: ParsedCriterion } | { problem: CriterionProblem } {
  if (!isRecord(criterion)) return { problem: { key: undefined, issue: 'must be an object with field, operator and value' } };
  for (const key of criterionKeys) {
    if (!Object.hasOwn(criterion, key)) return { problem: { key, issue: `is missing '${key}'` } };
  }
  const unknownKey = Object.keys(criterion).find((key) => !(criterionKeys as readonly string[]).includes(key));
  if (unknownKey !== undefined) return { problem: { key: unknownKey, issue: `has an unknown property '${unknownKey}'` } };

  const { field, operator, value } = criterion;
  if (!isSearchableField(field)) {
    return { problem: { key: 'field', issue: `is not a searchable field; use one of ${searchableFields.join(', ')}` } };
  }
  const rule = searchRules.fields[field];
  const allowed: readonly string[] = rule.operators;
  if (typeof operator !== 'string' || !allowed.includes(operator)) {
    const known = (searchRules.operators as readonly string[]).includes(operator as string);
    const shown = typeof operator === 'string' ? `'${operator}'` : JSON.stringify(operator);
    return {
      problem: {
        key: 'operator',
        issue: known
          ? `does not allow operator ${shown}; allowed: ${allowed.join(' ')}`
          : `has an unknown operator ${shown}; allowed for ${field}: ${allowed.join(' ')}`,
      },
    };
  }
  const type = valueTypes[rule.type];
  const valueProblem = (issue: string): { problem: CriterionProblem } => ({ problem: { key: 'value', issue } });

  switch (operator as SearchOperator) {
    case 'like': {
      const { minLength, maxLength } = searchRules.valueRules.like;
      if (typeof value !== 'string') return valueProblem(`value for 'like' must be a string of ${minLength} to ${maxLength} characters`);
      const length = [...value].length;
      if (length < minLength || length > maxLength) return valueProblem(`value for 'like' must be ${minLength} to ${maxLength} characters long`);
      return { criterion: { field, operator: 'like', value } };
    }
    case 'in': {
      const { minItems, maxItems } = searchRules.valueRules.in;
      if (!Array.isArray(value) || value.length < minItems || value.length > maxItems) {
        return valueProblem(`value for 'in' must be an array of ${minItems} to ${maxItems} elements, each ${type.describe}`);
      }
      const parsed: SearchValue[] = [];
      for (const [index, element] of value.entries()) {
        const item = type.parse(element);
        if (item === undefined) return valueProblem(`value[${index}] must be ${type.describe}`);
        parsed.push(item);
      }
      return { criterion: { field, operator: 'in', value: parsed } };
    }
    case 'between': {
      const { minItems } = searchRules.valueRules.between;
      if (!Array.isArray(value) || value.length !== minItems) {
        return valueProblem(`value for 'between' must be an array of exactly ${minItems} elements, each ${type.describe}`);
      }
      const low = type.parse(value[0]);
      const high = type.parse(value[1]);
      if (low === undefined) return valueProblem(`value[0] must be ${type.describe}`);
      if (high === undefined) return valueProblem(`value[1] must be ${type.describe}`);
      if (type.compare(low, high) > 0) return valueProblem(`value for 'between' must be [low, high] with low <= high`);
      return { criterion: { field, operator: 'between', value: [low, high] } };
    }
    default: {
      if (Array.isArray(value)) return valueProblem(`value for '${operator}' must be a single value, ${type.describe}, not an array`);
      const parsed = type.parse(value);
      if (parsed === undefined) return valueProblem(type.issue?.(value) ?? `value must be ${type.describe}`);
      return { criterion: { field, operator: operator as Exclude<SearchOperator, 'like' | 'in' | 'between'>, value: parsed } };
    }
  }
}
