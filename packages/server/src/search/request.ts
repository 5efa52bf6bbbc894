// The search body as a whole: defaults applied, and the first problem (in body order) thrown as a 400.
// Which parts are wrong, and in what words, is the contract's search checker (request-checks/), which
// the HTTP layer's error mapper (firstSearchProblem, merging the validator's problems) and the client's
// MSW handlers share: the checker refuses what the schema refuses (test/search/schema-agreement.test.ts),
// only in words that name the criterion, and also a `between` whose bounds are reversed.
import { isRecord, locateProblems, searchRequestProblem, searchRules, type ParsedCriterion, type SortField } from '@invoice-api/contract';
import { ApiError } from '../errors.js';

export interface ParsedSearch {
  limit: number;
  offset: number;
  orderBy: SortField;
  direction: 'asc' | 'desc';
  criteria: ParsedCriterion[];
  /** The `cursor` as sent; decoded against the account and the search by the query (cursor.ts). */
  cursor: string | undefined;
}

/** The search body with defaults applied, or a 400 naming its first problem in body order. */
export function parseSearchRequest(body: unknown): ParsedSearch {
  if (body !== undefined && body !== null && !isRecord(body)) {
    throw ApiError.invalid('body', 'must be a JSON object', 'The search request body must be a JSON object.');
  }
  const request: Record<string, unknown> = body ?? {};
  const criteria: ParsedCriterion[] = [];
  const [problem] = locateProblems(request, criteria);
  if (problem !== undefined) {
    const { message, details } = searchRequestProblem(problem);
    throw new ApiError(400, 'invalid_request', message, details);
  }
  const { defaults } = searchRules;
  return {
    limit: (request.limit as number | undefined) ?? defaults.limit,
    offset: (request.offset as number | undefined) ?? defaults.offset,
    orderBy: (request.order_by as SortField | undefined) ?? defaults.order_by,
    direction: (request.order_direction as 'asc' | 'desc' | undefined) ?? defaults.order_direction,
    criteria,
    cursor: request.cursor as string | undefined,
  };
}
