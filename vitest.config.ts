import { defineConfig } from 'vitest/config';

// One vitest run over every package; each package may add its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*'],
  },
});
