// Starts what the selected targets need, on free ports, and stops it after the run:
//   mock     Prism mock over the bundled spec
//   service  the service (PGlite in memory) with a fresh development key
//   proxy    Prism's validation proxy in front of that same service (no --errors: the service's own
//            answers pass through, Prism only reports violations in `sl-violations`)
//   stateful-mock  `pnpm mock:stateful`'s command (the service's app on an in-memory fixture, local
//            CORS, POST /__mock/reset) with the same development key
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { bundledSpec, startPrism, type RunningPrism } from '../../../scripts/lib/prism.mjs';
import { compiledStatefulMockEntry, freePort, startService, type RunningService } from './service.js';
import { selectedTargetNames, type Target } from './targets.js';

/** What `pnpm mock:stateful` runs. */
export const statefulMockEntry = compiledStatefulMockEntry;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const names = selectedTargetNames();
  const needsService = names.includes('proxy') || names.includes('service');
  const needsStatefulMock = names.includes('stateful-mock');
  const workDir = mkdtempSync(join(tmpdir(), 'contract-tests-'));
  const keyFile = join(workDir, 'dev-key.json');
  const running: Array<RunningPrism | RunningService> = [];
  const teardown = async () => {
    await Promise.allSettled(running.map((child) => child.stop()));
    rmSync(workDir, { recursive: true, force: true });
  };

  try {
    // Prism watches its spec file and reloads when it changes; a private copy keeps the mock and the
    // proxy up while anything else in the run regenerates packages/contract/generated.
    const spec = join(workDir, 'openapi.yaml');
    copyFileSync(bundledSpec, spec);
    // Minting once writes the key file, so the service and the tests share one key from the start.
    if (needsService || needsStatefulMock) await mintDevToken({ keyFile });
    // The service's port is picked first, so the proxy can start while the service seeds its data.
    const servicePort = needsService ? await freePort() : 0;
    const started = <T extends RunningPrism | RunningService>(child: T): T => {
      running.push(child);
      return child;
    };
    const starting = {
      mock: names.includes('mock') ? startPrism({ mode: 'mock', spec }).then(started) : undefined,
      service: needsService ? startService({ keyFile, port: servicePort }).then(started) : undefined,
      proxy: names.includes('proxy') ? startPrism({ mode: 'proxy', upstream: `http://127.0.0.1:${servicePort}`, spec }).then(started) : undefined,
      // Its default fixture is the demo data the scenarios look up (two accounts, client paging).
      statefulMock: needsStatefulMock
        ? freePort().then((port) => startService({ keyFile, port, entry: statefulMockEntry, args: ['--port', String(port)] }).then(started))
        : undefined,
    };
    // allSettled first: when one fails to start, the others still starting finish and are stopped by
    // the teardown instead of being left running after the run.
    const failed = (await Promise.allSettled(Object.values(starting))).find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const [mock, service, proxy, statefulMock] = await Promise.all([starting.mock, starting.service, starting.proxy, starting.statefulMock]);

    const targets: Target[] = [];
    if (mock) targets.push({ name: 'mock', baseUrl: mock.url, stateful: false, validatedByPrism: true });
    if (proxy && service) targets.push({ name: 'proxy', baseUrl: proxy.url, stateful: true, validatedByPrism: true, keyFile });
    if (service && names.includes('service')) targets.push({ name: 'service', baseUrl: service.url, stateful: true, validatedByPrism: false, keyFile });
    if (statefulMock) targets.push({ name: 'stateful-mock', baseUrl: statefulMock.url, stateful: true, validatedByPrism: false, keyFile });
    project.provide('contractTargets', targets);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
