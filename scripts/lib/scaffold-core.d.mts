// Types for scaffold-core.mjs, for its tests in packages/contract-tests.
export interface ScaffoldEntry {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  summary?: string;
  statuses: readonly number[];
}
export interface Wiring {
  lines: string[];
  imports: Map<string, string>;
  wired: Map<string, string>;
  lastImportLine: number;
  lastWiringLine: number;
}
export interface PlannedStub {
  entry: ScaffoldEntry;
  file: string;
  namespace: string;
}
export declare function namespaceOf(tag: string): string;
export declare function fileOf(tag: string): string;
export declare function readWiring(indexSource: string): Wiring;
export declare function planStubs(entries: readonly ScaffoldEntry[], wiring: Wiring): PlannedStub[];
export declare function staleOperations(entries: readonly ScaffoldEntry[], wiring: Wiring): string[];
export declare function stubError(entry: ScaffoldEntry): { status: number; code: string };
export declare function stubSource(entry: ScaffoldEntry): string;
export declare function missingImports(fileSource: string): string[];
export declare function withImports(fileSource: string, imports: readonly string[]): string;
export declare function newTagFile(tag: string): string;
export declare function wire(wiring: Wiring, stubs: readonly PlannedStub[]): string;
export declare function declaresHandler(fileSource: string, operationId: string): boolean;
