// The search module's public face: parse and check a search body, run it, and name its first problem.
// Checking a criterion and locating a body's problems is the contract's (shared with the client's MSW
// handlers); it is re-exported here so the service's code and tests keep one door to the search.
export { checkCriterion, firstSearchProblem, isSearchableField, type ParsedCriterion, type SearchProblem } from '@invoice-api/contract';
export { parseSearchRequest, type ParsedSearch } from './request.js';
export { escapeLike, keysetBatchReader, searchInvoices, type KeysetPosition, type MatchingInvoices, type SearchOrder, type SearchPage } from './query.js';
