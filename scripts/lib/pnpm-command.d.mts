// Types for pnpm-command.mjs, so the TypeScript tests can import it.
export declare const pinnedPnpmVersion: string;
export declare function pnpmCommand(env?: NodeJS.ProcessEnv): [string, ...string[]];
export declare function pnpmShellFunction(env?: NodeJS.ProcessEnv): string;
