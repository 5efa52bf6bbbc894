// Types for spec-diff-core.mjs, for the tests in packages/contract-tests.
export interface Break {
  /** JSON path of the place that breaks, e.g. `$.paths["/2.0/delivery"].post.requestBody.content["application/json"].schema.properties.items`. */
  path: string;
  /** Machine-readable rule: operation-removed, field-removed, new-required-field, enum-narrowed, type-changed, ... */
  rule: string;
  message: string;
}
export declare function findBreakingChanges(base: unknown, head: unknown): Break[];
/** Operations whose operationId is new in `head`: each needs a handler (`pnpm scaffold`). */
export declare function findNewOperations(base: unknown, head: unknown): { operationId: string; method: string; path: string }[];
