import { defineConfig } from 'vitest/config';
import { SlowestTestFiles } from './scripts/lib/slowest-test-files.mjs';

// One vitest run over every package; each package may add its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*'],
    // Vitest's default is one worker per core less one: a single worker on a 2-core machine. Most test
    // files here wait on PostgreSQL, child processes or a browser rather than compute, so three files at
    // a time keep both cores busy (two left a core idle for a quarter of the run; four gained nothing
    // over three); each test run has its own database, so files cannot see each other.
    maxWorkers: 3,
    reporters: ['default', new SlowestTestFiles()],
    // Once per run, whichever projects run: process tests start the compiled service.
    globalSetup: ['packages/server/test/support/build-service.ts'],
  },
});
