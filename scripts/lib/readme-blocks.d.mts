// Types for readme-blocks.mjs, so the TypeScript tests can import it.
export interface FencedBlock {
  /** The language the opening fence names (`sh`, `ts`, `yaml`), or empty. */
  language: string;
  /** The block's text without its fences, the fence's indentation removed. */
  text: string;
  firstLine: string;
  /** The line of the opening fence (1-based). */
  line: number;
  /** The nearest heading above the block, as written: `### Backups`. */
  heading: string;
  /** The reason of a `<!-- not run: ... -->` comment on the line before the block. */
  notRun: string | undefined;
}
export declare const repoRoot: string;
export declare function readmeFiles(dir?: string): string[];
export declare function fencedBlocks(markdown: string): FencedBlock[];
export declare function readGuide(guide: string): string;
export declare function readmeBlock(guide: string, heading: string, marker: string): string;
export declare function lineOf(block: string, start: string): string;
export interface RunningBlock {
  /** The match of `ready` in the block's output. */
  match: RegExpExecArray;
  /** Everything the block printed so far, stdout and stderr, without colours. */
  output(): string;
  /** Ends the block's whole process group and waits for it. */
  stop(): Promise<void>;
}
export declare function runBlock(
  block: string,
  options?: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<{ stdout: string; stderr: string }>;
export declare function startBlock(block: string, options: { ready: RegExp; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<RunningBlock>;
