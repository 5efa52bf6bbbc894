// The contract as a browser sees it: the API's types and the tables generated from the spec, without
// the Node-only spec loader (spec.ts resolves file paths and reads files when it is imported).
// Bundlers pick this file through the `browser` condition of package.json's `exports`.
export type { paths, operations, components } from '../generated/schema.js';
export { operationTable } from '../generated/operations.js';
export { searchRules } from '../generated/search-rules.js';
export type { BodyBounds, DeprecationFacts, DeprecationNotice, OperationFacts, OperationId, RateLimitGroup } from '../generated/operations.js';
export type * from './schemas.js';
export { decimalPlaces, isDate, isDateTime, numberFormats, responseFormats } from './formats.js';
export type { FormatCheck, NumberFormat } from './formats.js';
export { answerIssue, jsonPath } from './answer-check.js';
export type { CompiledCheck, CompiledCheckError, ResponseIssue, ResponseValidatorTable } from './answer-check.js';
export * from './request-checks/index.js';
