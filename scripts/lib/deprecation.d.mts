import type { DeprecationNotice } from '../../packages/contract/generated/operations.js';

export declare const sinceKeyword: 'x-deprecated-since';
export declare const sunsetKeyword: 'x-sunset';
/** Seconds since the epoch of 00:00:00 UTC on a `YYYY-MM-DD` day; undefined when it is no such day. */
export declare function dayToEpochSeconds(text: unknown): number | undefined;
/** The checked deprecation notice of an operation, parameter or schema; null when not deprecated; throws naming `where`. */
export declare function deprecationNotice(node: unknown, where: string): DeprecationNotice | null;
/** Every deprecated property of a request body schema, by its path of names (`*` for array items). */
export declare function deprecatedProperties(spec: unknown, schema: unknown, where: string): Array<DeprecationNotice & { path: string[] }>;
/** The operation's section in /docs. */
export declare function docsLink(operationId: string): string;
