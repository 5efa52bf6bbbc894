#!/usr/bin/env node
// `pnpm example`: the example app (packages/example-app) on the Prism mock, both on 127.0.0.1.
//   PORT       the app's port (default 5173)
//   MOCK_PORT  the mock's port (default 4010)
// Ctrl-C stops both. To point the app at the service instead, see packages/example-app/README.md.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startExampleApp } from '../packages/example-app/dev/serve.mjs';
import { repoRoot, startPrism } from './lib/prism.mjs';

function portFrom(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`example: ${name} must be a port number, got ${process.env[name]}`);
    process.exit(2);
  }
  return value;
}

const appPort = portFrom('PORT', 5173);
const mockPort = portFrom('MOCK_PORT', 4010);

// A no-op when the spec did not change since the last run.
const generated = spawnSync(process.execPath, [join(repoRoot, 'scripts/generate.mjs')], { cwd: repoRoot, stdio: 'inherit' });
if (generated.status !== 0) process.exit(generated.status ?? 1);

const running = [];
let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled(running.map((child) => child.stop()));
  console.log('example: stopped');
  process.exit(code);
}

try {
  const mock = await startPrism({ mode: 'mock', port: mockPort });
  running.push(mock);
  // Any bearer token works against the mock.
  const app = await startExampleApp({ apiBaseUrl: mock.url, apiToken: 'any-token-works-against-the-mock', port: appPort });
  running.push(app);
  console.log(`example: mock on ${mock.url}`);
  console.log(`example: app on  ${app.url}  (open it in a browser; Ctrl-C stops both)`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void stopAll(0));
  // The mock dying takes the example with it: the page would only show "No answer".
  mock.exited.then(({ code }) => {
    if (!stopping) {
      console.error(`example: the mock exited (code ${code})`);
      void stopAll(1);
    }
  });
} catch (error) {
  console.error(`example: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
}
