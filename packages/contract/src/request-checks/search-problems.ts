// Where a search body goes wrong: every problem at most one per top-level property and per
// criterion, in body order, merged with the schema validator's problems. One checker serves the
// service (its handler and its error mapper) and the client's MSW handlers, so a mock refuses a search
// in the service's words. Every bound and list comes from the generated `searchRules`, that is from
// the spec's JSON Schema; what no schema can say (a `between` whose bounds are reversed) is code here.
import { searchRules } from '../../generated/search-rules.js';
import { checkCriterion, type ParsedCriterion } from './criteria.js';
import type { RequestProblem } from './validator-problems.js';

export interface SearchProblem {
  /** details.field: a top-level property name, a criterion's field name as sent, or a path. */
  field: string;
  issue: string;
}

export interface LocatedProblem extends SearchProblem {
  /** Where in the body, as key indexes and array indexes: sorts problems in body order. */
  position: number[];
}

interface IntegerBounds {
  minimum: number;
  maximum: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyIndex(container: unknown, key: string | undefined): number {
  return isRecord(container) && key !== undefined ? Object.keys(container).indexOf(key) : -1;
}

/** details.field for a problem inside criteria[index]: its field name as sent, else its path. */
function criterionFieldName(criterion: unknown, index: number): string {
  if (isRecord(criterion)) {
    return typeof criterion.field === 'string' && criterion.field !== '' ? criterion.field : `criteria[${index}].field`;
  }
  return `criteria[${index}]`;
}

function integerProblem(value: unknown, bounds: IntegerBounds): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
  if (value < bounds.minimum || value > bounds.maximum) return `must be between ${bounds.minimum} and ${bounds.maximum}`;
  return undefined;
}

function topLevelProblem(key: string, value: unknown): string | undefined {
  switch (key) {
    case 'limit':
      return integerProblem(value, searchRules.limit);
    case 'offset':
      return integerProblem(value, searchRules.offset);
    case 'order_by':
      return (searchRules.sortFields as readonly unknown[]).includes(value) ? undefined : `must be one of ${searchRules.sortFields.join(', ')}`;
    case 'order_direction':
      return (searchRules.directions as readonly unknown[]).includes(value) ? undefined : `must be one of ${searchRules.directions.join(', ')}`;
    case 'cursor': {
      const { minLength, maxLength } = searchRules.cursor;
      // Counted in code points, as JSON Schema's minLength/maxLength count.
      const length = typeof value === 'string' ? [...value].length : -1;
      return length >= minLength && length <= maxLength ? undefined : `must be a string of ${minLength} to ${maxLength} characters: a pagination.next_cursor`;
    }
    case 'criteria':
      if (!Array.isArray(value)) return 'must be an array of criteria';
      return value.length > searchRules.maxCriteria ? `must hold at most ${searchRules.maxCriteria} criteria` : undefined;
    default:
      return (searchRules.properties as readonly string[]).includes(key) ? undefined : 'is not a known property';
  }
}

/**
 * Every problem of a search body (at most one per top-level property and per criterion), in body
 * order. Criteria that check out are appended to `parsed` on the way, so the body's lists (up to 20 x
 * 1,000 values) are walked once.
 */
export function locateProblems(body: Record<string, unknown>, parsed: ParsedCriterion[] = []): LocatedProblem[] {
  const problems: LocatedProblem[] = [];
  Object.entries(body).forEach(([key, value], position) => {
    // offset 0 is the default (the validator fills it in), so only a skip cannot go with a cursor.
    const issue = topLevelProblem(key, value) ?? (key === 'cursor' && (body.offset ?? 0) !== 0 ? 'cannot be combined with an offset other than 0' : undefined);
    if (issue !== undefined) {
      problems.push({ field: key, issue, position: [position] });
      return;
    }
    if (key !== 'criteria' || !Array.isArray(value)) return;
    value.forEach((criterion: unknown, index) => {
      const checked = checkCriterion(criterion);
      if ('criterion' in checked) parsed.push(checked.criterion);
      else {
        problems.push({
          field: criterionFieldName(criterion, index),
          issue: checked.problem.issue,
          position: [position, index, keyIndex(criterion, checked.problem.key)],
        });
      }
    });
  });
  return problems;
}

function comparePositions(left: readonly number[], right: readonly number[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** Ajv's words for an unknown property say nothing to an API user. */
function schemaIssue(message: string): string {
  return /additional propert/i.test(message) ? 'is not a known property' : message;
}

/**
 * The first problem of a search body in body order, merging the schema validator's problems
 * (paths like ['criteria', 2, 'value'] or ['limit']) with the semantic ones (operator not allowed
 * for the field, wrong value type/shape, like length, between order…). details.field is the
 * criterion's field name as sent (an unknown one included), else its path like
 * `criteria[2].field`; for top-level properties the property name (an unknown one included).
 * Undefined when the body is not an object (the caller reports that as a whole-body problem).
 */
export function firstSearchProblem(
  body: unknown,
  schemaProblems: Array<{ path: Array<string | number>; message: string }>,
  properties: readonly string[] = searchRules.properties,
): SearchProblem | undefined {
  if (!isRecord(body)) return undefined;
  // The search's own checks of the properties this body has; any other is the schema's to report.
  const own = locateProblems(body).filter((problem) => properties.includes(Object.keys(body)[problem.position[0] ?? -1] ?? ''));
  const criteriaPosition = Object.keys(body).indexOf('criteria');
  // The semantic checker also covers everything the schema says about a criterion, in clearer words;
  // the validator's problems count where the checker found nothing at that place.
  const coveredCriteria = new Set(own.filter((problem) => problem.position.length > 1).map((problem) => problem.position[1]));
  const coveredTopLevel = new Set(own.filter((problem) => problem.position.length === 1).map((problem) => problem.position[0]));
  const fromSchema: LocatedProblem[] = [];
  for (const { path, message } of schemaProblems) {
    const [top, index, key] = path;
    if (typeof top !== 'string') continue;
    const topPosition = Object.keys(body).indexOf(top);
    if (top === 'criteria' && typeof index === 'number' && Array.isArray(body.criteria)) {
      if (coveredCriteria.has(index)) continue;
      const criterion: unknown = body.criteria[index];
      fromSchema.push({
        field: criterionFieldName(criterion, index),
        issue: schemaIssue(message),
        position: [criteriaPosition, index, keyIndex(criterion, typeof key === 'string' ? key : undefined)],
      });
    } else if (!coveredTopLevel.has(topPosition)) {
      fromSchema.push({ field: top, issue: schemaIssue(message), position: [topPosition] });
    }
  }
  const [first] = [...own, ...fromSchema].sort((left, right) => comparePositions(left.position, right.position));
  return first === undefined ? undefined : { field: first.field, issue: first.issue };
}

/** The 400's message and details for a search body's problem. */
export function searchRequestProblem(problem: SearchProblem): RequestProblem {
  return { message: `Invalid search request: '${problem.field}' ${problem.issue}.`, details: { field: problem.field, issue: problem.issue } };
}

/**
 * The first problem of a search body the schema lets through (a `between` whose bounds are reversed)
 * or that the service's own checks find, as the service's search handler reports it; undefined when
 * the body is a search it runs. `body` has passed schema validation (or is absent: every default).
 */
export function searchBodyProblem(body: unknown): RequestProblem | undefined {
  if (!isRecord(body) && body !== undefined && body !== null) return undefined;
  const [problem] = locateProblems(isRecord(body) ? body : {});
  return problem === undefined ? undefined : searchRequestProblem(problem);
}
