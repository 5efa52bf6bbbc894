import { defineConfig } from 'vitest/config';

// The robustness files start service processes and load them. They share the machine with one other
// test file at a time, like every other file: each has its own database and free ports. Their time
// bounds are the service's own deadlines with a margin (the shutdown timeout plus 1.5 s, 6 s for a
// request while PostgreSQL is cut), not speed targets.
export default defineConfig({
  test: {
    name: 'robustness',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
