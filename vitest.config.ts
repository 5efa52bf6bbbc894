import { defineConfig } from 'vitest/config';
import { SlowestTestFiles } from './scripts/lib/slowest-test-files.mjs';

// One vitest run over every package; each package may add its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*'],
    // Vitest's default is one worker per core less one: a single worker on a 2-core machine. Most test
    // files here wait on PostgreSQL, child processes or a browser rather than compute: with two files at
    // a time the two cores were still idle a fifth of the run, with three the waits of one file fill
    // the others' CPU. Each test run has its own databases, key prefixes and ports, so files cannot
    // see each other, and no test holds anything to a speed.
    maxWorkers: 3,
    reporters: ['default', new SlowestTestFiles()],
    // Once per run, whichever projects run: process tests start the compiled service.
    globalSetup: ['packages/server/test/support/build-service.ts'],
  },
});
