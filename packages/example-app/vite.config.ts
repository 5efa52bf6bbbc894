// `pnpm --filter @invoice-api/example-app dev` (or `pnpm example` at the root, with the mock).
// The API's address and token come from VITE_API_BASE_URL and VITE_API_TOKEN; VITE_API_MOCK=msw
// answers them with the generated MSW handlers in a service worker (see README.md).
import { defineConfig } from 'vite';
import { mswMode } from './dev/msw-mode.mjs';

export default defineConfig({
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  // The workspace packages are TypeScript sources, openapi-fetch and @tanstack/query-core plain ESM:
  // nothing needs pre-bundling (but msw, in MSW mode: dev/msw-mode.mjs), and discovering
  // dependencies at the first page load would reload the page.
  optimizeDeps: { noDiscovery: true, include: [] },
  build: { target: 'es2022' },
  plugins: [mswMode()],
});
