// gc-observer.mjs in a real server process: SIGUSR2 opens and closes a window, and what it writes is
// what `--gc` reads. The server keeps about 1 KiB of every request and drops about 8 KiB at once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/child-process.js';
import { gcObserver, watchCollections } from '../src/gc-run.js';
import { allocationSites, summariseGc } from '../src/gc-stats.js';
import { runHttpLoad } from '../src/http-load.js';

const retainingServer = fileURLToPath(new URL('./support/retaining-server.mjs', import.meta.url));

describe('gc-observer.mjs', () => {
  let directory: string;
  let server: RunningServer;
  const output = () => join(directory, 'gc.json');
  const load = (requests: number) => () => runHttpLoad({ url: server.url, method: 'GET', path: '/', connections: 4, measure: { requests }, expectStatus: 204 });
  let firstWindowAllocatedKiB = Number.NaN;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'gc-observer-test-'));
    server = await startServer({ entry: retainingServer, env: { GC_OBSERVER_OUTPUT: output() }, nodeArgs: ['--import', gcObserver] });
  });

  afterAll(async () => {
    await server?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it("writes the window's collections and what it allocated", async () => {
    const { window, measured } = await watchCollections(server, output(), load(5000));
    expect([measured.requests, measured.errors]).toEqual([5000, 0]);
    expect(window.collections.every((collection) => collection.cost >= 0 && collection.beforeGC.heapSpaceStatistics.length > 0)).toBe(true);
    const figures = summariseGc(window, measured.requests);
    // The two arrays alone are 9 KiB per request, besides Node's own request and response.
    expect(figures.allocatedKiBPerRequest).toBeGreaterThan(9);
    expect(figures.youngCollections).toBeGreaterThan(0);
    expect(figures.youngPauseMicrosecondsPerRequest).toBeGreaterThan(0);
    firstWindowAllocatedKiB = figures.allocatedKiBPerRequest * measured.requests;

    // What outlived young collections: the kept array (1 KiB per request), not the dropped one
    // (8 KiB). V8 may inline keep and discard into the handler, which then gets their allocations:
    // the server file's sites are counted together.
    const sites = allocationSites(window.survivors.head, measured.requests, 50);
    const fromServer = sites.filter((site) => site.site.includes('retaining-server.mjs')).reduce((sum, site) => sum + site.kiBPerRequest, 0);
    expect(fromServer, JSON.stringify(sites.slice(0, 8))).toBeGreaterThan(0.8);
    expect(fromServer, JSON.stringify(sites.slice(0, 8))).toBeLessThan(3);
  }, 60_000);

  it('opens a second window that counts only its own requests', async () => {
    const { window, measured } = await watchCollections(server, output(), load(100));
    expect(measured.requests).toBe(100);
    // 100 requests against the first window's 5,000: a window that still counted from the first
    // one's start, or kept its collections, would report about as much.
    expect(summariseGc(window, measured.requests).allocatedKiBPerRequest * measured.requests).toBeLessThan(firstWindowAllocatedKiB / 10);
  }, 60_000);
});
