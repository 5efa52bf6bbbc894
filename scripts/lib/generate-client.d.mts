// Types for generate-client.mjs, for the client package's tests.
import type { MediaFacts } from '../../packages/contract/generated/operations.js';

/** The fields of an operation table entry the client generator reads. */
export interface ClientTableEntry {
  operationId: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  scopes: readonly string[];
  pathParams: readonly { name: string; segment: number }[];
  queryParams: readonly { name: string; required: boolean; style?: string; explode?: boolean }[];
  /** Request headers the operation declares; absent means none. */
  headerParams?: readonly { name: string; required: boolean }[];
  /** The request body's media types (scripts/lib/media-shapes.mjs); null without a body. */
  requestMedia: { required: boolean; media: readonly MediaFacts[] } | null;
  /** Each documented status's media types; `[]`: no body. */
  responseMedia: { readonly [status: string]: readonly MediaFacts[] };
}

/** How the transport reads the success answers (status -> [mediaType, kind][]); undefined where all are one JSON body. */
export type ReadPlan = Record<string, [string, MediaFacts['kind']][]>;
/** How the transport writes a body that is not JSON. */
export type WritePlan = { mediaType: string; kind: MediaFacts['kind']; files?: Record<string, string> }[];

export declare function argumentName(parameterName: string): string;
export declare function typeLiteral(value: unknown): string;
export declare function readPlanOf(entry: ClientTableEntry): ReadPlan | undefined;
export declare function writePlanOf(entry: ClientTableEntry): WritePlan | undefined;
export declare function queryStylesOf(entry: ClientTableEntry): Record<string, [string, boolean]> | undefined;
export declare function clientOperationsModule(table: Record<string, ClientTableEntry>): string;
/** The media facts of each operation as the TypeScript types `OperationMedia` and `Contract`. */
export declare function contractTypesSource(table: Record<string, ClientTableEntry>): string;
/**
 * The call options of an operation's function: `headers` (`CallOptions & IfMatchOption`), `own` (with
 * `ContentTypeOption`), the `reading` options that make it generic (`StreamOption`, `AcceptOption<...>`),
 * the `parameter` and `typeParameters` it is written with, and its header plan.
 */
export declare function callOptionsOf(entry: ClientTableEntry): {
  headers: string;
  own: string;
  reading: string[];
  required: boolean;
  parameter: string;
  typeParameters: string;
  plan: Record<string, string>;
};
/** An operation function's type parameters, parameters and result type over the contract type `contract`. */
export declare function signatureOf(
  entry: ClientTableEntry,
  contract?: string,
): { typeParameters: string; parameters: string[]; result: string; options: ReturnType<typeof callOptionsOf> };
