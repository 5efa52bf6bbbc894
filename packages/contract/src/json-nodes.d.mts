/** A JSON object (not an array, not null). */
export declare function isRecord(value: unknown): value is Record<string, unknown>;
/**
 * Follows local references (`#/components/...`) until a node that is not a reference; undefined when
 * that is not an object or a reference does not resolve.
 */
export declare function resolveRef(document: unknown, value: unknown): Record<string, unknown> | undefined;
