import type { OperationFacts } from '../../packages/contract/generated/operations.js';

/** The largest id a PostgreSQL `integer` holds: the bound of a path id whose schema states none. */
export declare const defaultIdMaximum: number;
/** Every operation of the bundled `spec`, keyed by operationId; throws on an operation the table cannot describe. */
export declare function operationTable(spec: unknown): Record<string, OperationFacts>;
/** The TypeScript source of the generated operations module (without its header). */
export declare function operationTableSource(table: Record<string, OperationFacts>): string;
