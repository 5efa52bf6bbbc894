// The example app's tests. Each browser file starts what it needs on free ports (the Prism mock, the
// service, the app's Vite dev server) and its own Chromium, so they share the machine with one other
// test file at a time like every other file.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'example-app',
    include: ['test/**/*.test.ts'],
    // Upper bounds, not waits: Prism, the service and Redoc start slowly on a loaded 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    // One module graph per worker, not per file: no file here mocks a module or stubs a global, and the
    // MSW server closes after its file.
    isolate: false,
  },
});
