import { defineConfig } from 'vitest/config';

// Several contract tests run whole tools as processes (Redocly lint, the generator, Prism): seconds
// each on a quiet machine, far more beside the rest of the suite on two cores.
export default defineConfig({
  test: {
    name: '@invoice-api/contract',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One module graph per worker, not per file: no file here mocks a module or stubs a global.
    isolate: false,
  },
});
