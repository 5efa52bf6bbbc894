import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    include: ['test/**/*.test.ts'],
    // The smoke run starts eight processes and loads a small data set: under a minute on two idle cores,
    // over two minutes when other test runs share them.
    testTimeout: 210_000,
  },
});
