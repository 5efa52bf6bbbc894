// gc-observer.mjs in a real server process: SIGUSR2 opens and closes a window, and what it writes is
// what `--gc` reads. The tiny server allocates only Node's own objects per request, enough for
// young collections over a few thousand requests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/child-process.js';
import { gcObserver, watchCollections } from '../src/gc-run.js';
import { summariseGc } from '../src/gc-stats.js';
import { runHttpLoad } from '../src/http-load.js';

const tinyServer = fileURLToPath(new URL('./support/tiny-server.mjs', import.meta.url));

describe('gc-observer.mjs', () => {
  let directory: string;
  let server: RunningServer;
  const output = () => join(directory, 'gc.json');
  let firstWindowAllocatedKiB = Number.NaN;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'gc-observer-test-'));
    server = await startServer({ entry: tinyServer, env: { GC_OBSERVER_OUTPUT: output() }, nodeArgs: ['--import', gcObserver] });
  });

  afterAll(async () => {
    await server?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it("writes the window's collections and allocation, and a heap profile of what outlived young collections", async () => {
    const { window, requests } = await watchCollections(server, output(), () =>
      runHttpLoad({ url: server.url, method: 'GET', path: '/', connections: 4, measure: { requests: 20_000 }, expectStatus: 204 }),
    );
    expect(requests).toBe(20_000);
    expect(window.usedAtStart).toBeGreaterThan(0);
    expect(window.collections.length).toBeGreaterThan(0);
    expect(window.collections.every((collection) => collection.cost >= 0 && collection.beforeGC.heapSpaceStatistics.length > 0)).toBe(true);
    expect(window.survivors.head.callFrame.functionName).toBe('(root)');
    const figures = summariseGc(window, requests);
    // Node's request and response objects alone are well over a KiB per request.
    expect(figures.allocatedKiBPerRequest).toBeGreaterThan(1);
    expect(figures.youngCollections).toBeGreaterThan(0);
    expect(figures.youngPauseMicrosecondsPerRequest).toBeGreaterThan(0);
    firstWindowAllocatedKiB = figures.allocatedKiBPerRequest * requests;
  }, 60_000);

  it('opens a second window that counts only its own requests', async () => {
    await rm(output(), { force: true });
    const { window, requests } = await watchCollections(server, output(), () =>
      runHttpLoad({ url: server.url, method: 'GET', path: '/', connections: 1, measure: { requests: 100 }, expectStatus: 204 }),
    );
    expect(requests).toBe(100);
    // 100 requests against the first window's 20,000: a window that still counted from the first
    // one's start, or kept its collections, would report about as much.
    expect(summariseGc(window, requests).allocatedKiBPerRequest * requests).toBeLessThan(firstWindowAllocatedKiB / 10);
  }, 60_000);
});
