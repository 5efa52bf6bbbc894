// The search module's public face: parse and check a search body, run it, and name its first problem.
export { checkCriterion, isSearchableField, type ParsedCriterion } from './criteria.js';
export { firstSearchProblem, parseSearchRequest, type ParsedSearch, type SearchProblem } from './request.js';
export { escapeLike, searchInvoices, type SearchPage } from './query.js';
