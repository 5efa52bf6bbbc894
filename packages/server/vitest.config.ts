import { defineConfig } from 'vitest/config';

// The server's tests use real PostgreSQL and Redis on loopback and PGlite in memory: each file opens
// its own databases (PGlite's initdb takes seconds on a busy machine), hence the generous hook timeout.
export default defineConfig({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One module graph per worker, not per file (no file here mocks a module or stubs a global, and each
    // opens its own databases): each file then reuses the service's modules, compiled validators and
    // PGlite dumps already loaded, where isolating files cost a third of this project's CPU.
    isolate: false,
  },
});
