// Starts the example app's Vite dev server with the API's base URL and token baked in, on 127.0.0.1.
// Shared by `pnpm example` (root scripts/example.mjs) and the browser tests. Plain JS (with
// serve.d.mts) so that the root script runs without a TypeScript loader.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

export const appRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {object} options
 * @param {string} options.apiBaseUrl   the API the page calls (the mock or the service)
 * @param {string} options.apiToken     the bearer token the page sends
 * @param {number} [options.port]       0 (default) picks a free port
 * @param {string} [options.host]
 * @param {boolean} [options.watch]     reload the page when a source changes (default true); tests turn it off
 * @param {'info' | 'warn' | 'error' | 'silent'} [options.logLevel]
 * @param {'msw'} [options.mock]        'msw': the generated MSW handlers answer at apiBaseUrl from a service worker
 */
export async function startExampleApp({ apiBaseUrl, apiToken, port = 0, host = '127.0.0.1', watch = true, logLevel = 'warn', mock }) {
  const server = await createServer({
    root: appRoot,
    configFile: join(appRoot, 'vite.config.ts'),
    logLevel,
    // The same variables `vite` reads from VITE_* in the environment, given explicitly so that two
    // servers in one process can point at two APIs.
    define: {
      'import.meta.env.VITE_API_BASE_URL': JSON.stringify(apiBaseUrl),
      'import.meta.env.VITE_API_TOKEN': JSON.stringify(apiToken),
      'import.meta.env.VITE_API_MOCK': JSON.stringify(mock ?? ''),
    },
    server: { host, port, strictPort: port !== 0, ...(watch ? {} : { hmr: false, watch: null }) },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') {
    await server.close();
    throw new Error('example app: the dev server has no TCP address');
  }
  return { url: `http://${host}:${address.port}`, stop: () => server.close() };
}
