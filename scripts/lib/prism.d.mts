// Types for prism.mjs, so the TypeScript harness of the contract suite can import it.
export declare const repoRoot: string;
export declare const bundledSpec: string;
/** json-schema-faker options given to Prism for dynamic answers (unless the spec sets its own). */
export declare const dynamicFakerOptions: Record<string, unknown>;

export interface PrismOptions {
  mode: 'mock' | 'proxy';
  upstream?: string;
  dynamic?: boolean;
  port?: number;
  host?: string;
  spec?: string;
  timeoutMs?: number;
  onOutput?: (line: string) => void;
}

export interface RunningPrism {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export declare function startPrism(options: PrismOptions): Promise<RunningPrism>;
