import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    include: ['test/**/*.test.ts'],
    // The smoke run starts three processes and loads a small data set: about 35 s on two cores.
    testTimeout: 150_000,
  },
});
