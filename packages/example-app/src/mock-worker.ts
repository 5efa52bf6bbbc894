// MSW mode (VITE_API_MOCK=msw): the client's generated handlers answer the page's API calls from a
// service worker, as the service would, with nothing else running. The worker script is msw's own
// `mockServiceWorker.js`, served by the dev server from node_modules (vite.config.ts).
import { setupWorker } from 'msw/browser';
import { createHandlers } from '@invoice-api/client/msw';

export async function startMockWorker(apiBaseUrl: string): Promise<void> {
  const worker = setupWorker(...createHandlers({ baseUrl: apiBaseUrl }));
  // The page's own files (Vite's modules) pass through untouched and unannounced.
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
}
