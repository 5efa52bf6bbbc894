// Turns the request validator's list of problems into the ONE problem the Error object reports: the
// first in body order (Ajv lists them in schema order), named the way a client wrote it:
// `/body/items/0/quantity` -> `items[0].quantity`, `/params/invoice_id` -> `invoice_id`. A search body
// has its own rules for naming a criterion's problem (search-problems.ts). Shared by the service (its
// error mapper wraps the answer in an ApiError) and the client's MSW handlers (which give the problems
// of validators compiled at generate time in the validator's form), so both answer a bad request alike.
import { searchRules } from '../../generated/search-rules.js';
import { numberFormats } from '../formats.js';
import { firstSearchProblem, searchRequestProblem } from './search-problems.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A 400 invalid_request answer's message and details (absent when no problem could be located). */
export interface RequestProblem {
  message: string;
  details?: { field: string; issue: string };
}

/** What the mapping needs to know of the operation: its body's schema and its path parameters. */
export interface ProblemOperation {
  readonly body: { readonly schemaName: string | null } | null;
  readonly pathParams: ReadonlyArray<{ readonly name: string; readonly id: boolean }>;
}

/** The answer `ApiError.invalid(field, issue, message)` gives, as data. */
function invalid(field: string, issue: string, message = `Invalid '${field}': ${issue}.`): RequestProblem {
  return { message, details: { field, issue } };
}

/** One entry of the validator's `errors` array. */
export interface ValidatorProblem {
  path: string;
  message: string;
  errorCode?: string;
}

type Segment = string | number;

interface Located {
  where: 'body' | 'params' | 'query' | 'headers' | 'other';
  segments: Segment[];
  /** For body problems: key index or array index per segment (-1: not in the body), to sort by. */
  position: number[];
  keyword: string;
  message: string;
}

/** The 400's message and details for a failed request validation. */
export function requestProblem(problems: readonly ValidatorProblem[], body: unknown, operation: ProblemOperation | undefined): RequestProblem {
  const located = problems.map((problem) => locate(problem, body));
  const found = firstInRequestOrder(located);
  if (found === undefined) return { message: 'The request is invalid.' };
  const first = { ...found, message: friendlier(found.message) };

  if (first.where === 'params') return invalidPathParameter(first, operation);
  if (first.where === 'query') return invalidQueryParameter(first);
  if (first.where === 'headers') {
    // The validator reports header names in lower case; name them as the spec and clients write them.
    const header = String(first.segments[0] ?? 'header').replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
    return invalid(header, first.message, `Invalid header '${header}': ${first.message}.`);
  }
  // A body of search criteria (the search's, the export's) is reported in the search's words, for the
  // properties that body has (the export's `limit` is an unknown property, not an out-of-range one).
  const schemaName = operation?.body?.schemaName;
  const searchProperties = schemaName == null ? undefined : (searchRules.criteriaBodies as Readonly<Record<string, readonly string[]>>)[schemaName];
  if (searchProperties !== undefined) {
    const bodyProblems = located.filter((entry) => entry.where === 'body').map((entry) => ({ path: entry.segments, message: entry.message }));
    const problem = firstSearchProblem(body, bodyProblems, searchProperties);
    if (problem !== undefined) return searchRequestProblem(problem);
  }
  return invalidBodyProperty(first, body);
}

function invalidBodyProperty(problem: Located, body: unknown): RequestProblem {
  if (problem.segments.length === 0) {
    const issue = problem.message.replace(/^must be object$/, 'must be a JSON object');
    return invalid('body', issue, `The request body ${issue}.`);
  }
  const field = fieldName(problem.segments);
  switch (problem.keyword) {
    case 'required':
      return invalid(field, 'is required', `Missing required parameter '${field}'.`);
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return invalid(field, 'is not a known property', `Unknown property '${field}'.`);
    case 'type':
      if (valueAt(body, problem.segments) === null) return invalid(field, problem.message, `Invalid '${field}': must not be null.`);
      return invalid(field, problem.message);
    default:
      return invalid(field, problem.message);
  }
}

function invalidPathParameter(problem: Located, operation: ProblemOperation | undefined): RequestProblem {
  const name = String(problem.segments[0] ?? 'path');
  const message = isPositiveIntegerParameter(operation, name)
    ? `The path parameter '${name}' must be a positive integer.`
    : `Invalid path parameter '${name}': ${problem.message}.`;
  return invalid(name, problem.message, message);
}

function invalidQueryParameter(problem: Located): RequestProblem {
  const name = String(problem.segments[0] ?? 'query');
  if (/^Unknown query parameter/.test(problem.message)) return invalid(name, 'is not a known parameter', `Unknown query parameter '${name}'.`);
  return invalid(name, problem.message, `Invalid query parameter '${name}': ${problem.message}.`);
}

/** `/body/items/0/quantity` -> where `body`, segments `['items', 0, 'quantity']`, indexes as numbers. */
function locate(problem: ValidatorProblem, body: unknown): Located {
  const [, first, ...rest] = problem.path.split('/');
  const where = first === 'body' || first === 'params' || first === 'query' || first === 'headers' ? first : 'other';
  const segments: Segment[] = [];
  const position: number[] = [];
  let container: unknown = where === 'body' ? body : undefined;
  for (const escaped of rest) {
    const part = escaped.includes('~') ? escaped.replace(/~1/g, '/').replace(/~0/g, '~') : escaped;
    if (Array.isArray(container) && /^\d+$/.test(part)) {
      const index = Number(part);
      segments.push(index);
      position.push(index);
      container = container[index];
    } else {
      segments.push(part);
      position.push(isRecord(container) ? Object.keys(container).indexOf(part) : -1);
      container = isRecord(container) ? container[part] : undefined;
    }
  }
  return { where, segments, position, keyword: (problem.errorCode ?? '').replace(/\.openapi\.validation$/, ''), message: problem.message };
}

/**
 * Parameters first (path, query, headers: the URL is read before the body), then the body in the order
 * its properties were written. Within one object, a missing required property comes before the
 * properties present: a missing parameter is what the interface says to report (rule 4.2.1).
 * One linear pass: a body with thousands of invalid items yields tens of thousands of problems.
 */
function firstInRequestOrder(problems: readonly Located[]): Located | undefined {
  const whereRank: Record<Located['where'], number> = { params: 0, query: 1, headers: 2, body: 3, other: 4 };
  let best: Located | undefined;
  for (const problem of problems) {
    if (best === undefined) {
      best = problem;
      continue;
    }
    const byWhere = whereRank[problem.where] - whereRank[best.where];
    if (byWhere < 0 || (byWhere === 0 && comparePositions(problem.position, best.position) < 0)) best = problem;
  }
  return best;
}

function comparePositions(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** `['items', 0, 'quantity']` -> `items[0].quantity`. */
export function fieldName(segments: readonly Segment[]): string {
  return segments.reduce<string>((name, segment) => (typeof segment === 'number' ? `${name}[${segment}]` : name === '' ? segment : `${name}.${segment}`), '');
}

/** Ajv's text for the spec's own number formats says nothing to a client; say what the format means. */
function friendlier(message: string): string {
  const format = /^must match format "([^"]+)"$/.exec(message)?.[1];
  if (format === undefined) return message;
  const places = /^decimal(\d+)$/.exec(format)?.[1];
  if (places !== undefined && numberFormats.some((known) => known.name === format)) return `must have at most ${places} decimals`;
  if (format === 'date') return 'must be a date (YYYY-MM-DD)';
  if (format === 'date-time') return 'must be an ISO 8601 timestamp';
  return message;
}

function isPositiveIntegerParameter(operation: ProblemOperation | undefined, name: string): boolean {
  return (operation?.pathParams ?? []).some((parameter) => parameter.name === name && parameter.id);
}

function valueAt(body: unknown, segments: readonly Segment[]): unknown {
  return segments.reduce<unknown>((node, segment) => child(node, segment), body);
}

function child(container: unknown, segment: Segment): unknown {
  if (Array.isArray(container) && typeof segment === 'number') return container[segment];
  if (isRecord(container) && typeof segment === 'string') return container[segment];
  return undefined;
}
