import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    include: ['test/**/*.test.ts'],
    // The smoke run starts five processes and loads a small data set: about 40 s on two idle cores,
    // over two minutes when other test runs share them.
    testTimeout: 210_000,
  },
});
