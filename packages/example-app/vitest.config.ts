// The example app's tests. The browser files run one after another (one Chromium at a time: the
// machine is shared), each starting what it needs on free ports: the Prism mock, the service, the
// app's Vite dev server.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'example-app',
    include: ['test/**/*.test.ts'],
    fileParallelism: false,
    // Upper bounds, not waits: Prism, the service and Redoc start slowly on a loaded 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
