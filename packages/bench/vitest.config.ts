import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    include: ['test/**/*.test.ts'],
    // The smoke run proves that the benchmark runs and prints every table; how long it takes is not
    // what it checks. It loads a tiny data set and starts a dozen compiled service processes: about a
    // minute on two idle cores, several times that beside the rest of the suite. The bound only ends
    // a hung run, so it sits far above any duration a slow machine gives it.
    testTimeout: 900_000,
    // One module graph per worker, not per file: no file here mocks a module or stubs a global.
    isolate: false,
  },
});
