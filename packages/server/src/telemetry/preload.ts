// Loaded with `node --import` ahead of the service (scripts add it to every start): when the OTEL_*
// variables ask for tracing, it starts the SDK and registers the module hooks before the first module
// of the service is imported, which is the only moment they can still patch http, express, pg and
// ioredis under ESM. When they do not, it imports nothing more: the SDK is never loaded.
import { tracingRequested } from './settings.js';

if (tracingRequested(process.env)) {
  const { startTracing } = await import('./sdk.js');
  await startTracing();
}
