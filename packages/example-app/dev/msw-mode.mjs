// MSW mode for the dev server and the build (VITE_API_MOCK=msw): msw's own worker script, served from
// node_modules at /mockServiceWorker.js (and written into dist/ by a build in this mode), so no copy of
// it is kept in the repository and it always matches the installed msw; and msw pre-bundled, since its
// dependencies include CommonJS ones a browser cannot load as they are. Plain JS (with msw-mode.d.mts)
// so that vite.config.ts and serve.mjs share it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadEnv } from 'vite';

const workerScriptPath = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
const workerScriptUrl = '/mockServiceWorker.js';

/** Is this server or build in MSW mode: VITE_API_MOCK=msw in the environment or given by `define`? */
function isMswMode(config, mode) {
  const defined = config.define?.['import.meta.env.VITE_API_MOCK'];
  if (typeof defined === 'string') return JSON.parse(defined) === 'msw';
  return loadEnv(mode, config.root ?? process.cwd(), 'VITE_').VITE_API_MOCK === 'msw';
}

/** @returns {import('vite').Plugin} */
export function mswMode() {
  let enabled = false;
  return {
    name: 'invoice-api:msw-mode',
    config(config, { mode }) {
      enabled = isMswMode(config, mode);
      return enabled ? { optimizeDeps: { include: ['msw', 'msw/browser'] } } : {};
    },
    configureServer(server) {
      server.middlewares.use(workerScriptUrl, (_request, response) => {
        response.setHeader('Content-Type', 'text/javascript');
        response.end(readFileSync(workerScriptPath));
      });
    },
    generateBundle() {
      if (enabled) this.emitFile({ type: 'asset', fileName: workerScriptUrl.slice(1), source: readFileSync(workerScriptPath) });
    },
  };
}
