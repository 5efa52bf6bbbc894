// Types for generate-client.mjs, for the client package's tests.
export interface ClientTableEntry {
  operationId: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  scopes: readonly string[];
  pathParams: readonly { name: string; segment: number }[];
  queryParams: readonly { name: string; required: boolean }[];
  /** Request headers the operation declares; absent means none. */
  headerParams?: readonly { name: string; required: boolean }[];
  body: { required: boolean } | null;
}
export declare function argumentName(parameterName: string): string;
export declare function clientOperationsModule(table: Record<string, ClientTableEntry>): string;
/** The call options parameter of an operation's function (`opts?: CallOptions & IfMatchOption`) and its header plan. */
export declare function callOptionsOf(entry: ClientTableEntry): { parameter: string; plan: string | undefined };
