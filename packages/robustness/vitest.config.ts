import { defineConfig } from 'vitest/config';

// The robustness files start service processes and load them: on two cores, running them one after
// another keeps timing bounds meaningful (a starved process would look like a hung one).
export default defineConfig({
  test: {
    name: 'robustness',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
