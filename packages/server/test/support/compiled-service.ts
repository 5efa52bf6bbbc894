// The compiled service (scripts/build.mjs: packages/server/dist/), which process tests start instead
// of the TypeScript sources: no loader to start, and the files production runs. The run's global setup
// (build-service.ts) brings it up to date before any test file starts.
import { fileURLToPath } from 'node:url';

export const compiledMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Tracing's preload (src/telemetry/preload.ts), compiled: `--import` it ahead of the service. */
export const compiledTelemetryPreload = fileURLToPath(new URL('../../dist/telemetry-preload.js', import.meta.url));

/** Node's arguments to start it, source maps on so that a stack names the .ts lines. */
export const compiledMainArguments: readonly string[] = ['--enable-source-maps', compiledMain];

/** The compiled database commands, by the name `pnpm db:<name>` gives them. */
export const compiledCommands = {
  'check-totals': fileURLToPath(new URL('../../dist/db-check-totals.js', import.meta.url)),
  backup: fileURLToPath(new URL('../../dist/db-backup.js', import.meta.url)),
  restore: fileURLToPath(new URL('../../dist/db-restore.js', import.meta.url)),
  copy: fileURLToPath(new URL('../../dist/db-copy.js', import.meta.url)),
} as const;
