// `pnpm --filter @invoice-api/example-app dev` (or `pnpm example` at the root, with the mock).
// The API's address and token come from VITE_API_BASE_URL and VITE_API_TOKEN (see README.md).
import { defineConfig } from 'vite';

export default defineConfig({
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  // The workspace packages are TypeScript sources and openapi-fetch is plain ESM: nothing needs
  // pre-bundling, and discovering dependencies at the first page load would reload the page.
  optimizeDeps: { noDiscovery: true, include: [] },
  build: { target: 'es2022' },
});
