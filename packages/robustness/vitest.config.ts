import { defineConfig } from 'vitest/config';

// The robustness files start service processes and load them. They share the machine with one other
// test file at a time, like every other file: each has its own database and free ports, and their
// bounds are the service's own deadlines (header, request and shutdown timeouts), not durations.
export default defineConfig({
  test: {
    name: 'robustness',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
