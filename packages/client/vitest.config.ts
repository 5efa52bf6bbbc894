import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@invoice-api/client',
    include: ['test/**/*.test.ts'],
    // One module graph per worker, not per file: no file here mocks a module or stubs a global, fake
    // timers are put back after each test and the MSW servers close after their file.
    isolate: false,
  },
});
