// Types for generate-query.mjs, for the client package's tests.
import type { OperationFacts } from '../../packages/contract/generated/operations.js';
import type { PagingEntry } from './generate-paging.mjs';

/** GET, HEAD, or an operation whose scopes are all `:read` (the search): what gets query options. */
export declare function isRead(entry: OperationFacts): boolean;
/** Each write's checked `x-invalidates`: the reads it makes stale, with TypeScript for each path parameter (null: every call). */
export declare function invalidationTable(
  spec: unknown,
  table: Record<string, OperationFacts>,
): Record<string, { operationId: string; parameters: Record<string, string> | null }[]>;
/** The TypeScript module `packages/client/generated/query.ts`. */
export declare function queryOptionsModule(spec: unknown, table: Record<string, OperationFacts>, paging: Record<string, PagingEntry>, header: string): string;
