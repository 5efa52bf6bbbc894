// Types for spec-diff-core.mjs, for the tests in packages/contract-tests.
export interface Break {
  /** JSON path of the place that breaks, e.g. `$.paths["/2.0/delivery"].post.requestBody.content["application/json"].schema.properties.items`. */
  path: string;
  /**
   * Machine-readable rule: operation-removed, field-removed, new-required-field, enum-narrowed, type-changed, ...;
   * of how bodies and query parameters are carried: media-type-removed, response-body-removed,
   * default-media-type-changed, part-media-type-removed, parameter-style-changed.
   */
  rule: string;
  message: string;
}
/** `today`: the `YYYY-MM-DD` day sunsets are judged on (default: the current UTC day). */
export interface CompareOptions {
  today?: string;
}
/** Throws (naming the old or the new spec) on a body or query parameter the kit cannot carry, as generate does. */
export declare function findBreakingChanges(base: unknown, head: unknown, options?: CompareOptions): Break[];
/** The breaks, and the removals of deprecated items whose `x-sunset` has come (`retired`: allowed). */
export declare function compareSpecs(base: unknown, head: unknown, options?: CompareOptions): { breaks: Break[]; retired: Break[] };
/** Operations whose operationId is new in `head`: each needs a handler (`pnpm scaffold`). */
export declare function findNewOperations(base: unknown, head: unknown): { operationId: string; method: string; path: string }[];
