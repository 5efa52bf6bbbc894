// The garbage collector's figures per request from what gc-observer.mjs writes: allocation from the
// heap's growth between collections, pauses by kind, what young collections promoted.
import { describe, expect, it } from 'vitest';
import { allocationSites, summariseGc, type Collection, type GcWindow, type HeapProfileNode } from '../src/gc-stats.js';

const MiB = 1024 * 1024;

/** A heap of `young` and `old` MiB in use (the other spaces empty). */
function heap(young: number, old: number) {
  return {
    heapStatistics: { usedHeapSize: (young + old) * MiB },
    heapSpaceStatistics: [
      { spaceName: 'new_space', spaceUsedSize: young * MiB },
      { spaceName: 'old_space', spaceUsedSize: old * MiB },
      { spaceName: 'code_space', spaceUsedSize: 0 },
    ],
  };
}

const collection = (gcType: string, cost: number, before: [number, number], after: [number, number]): Collection => ({
  gcType,
  cost,
  beforeGC: heap(...before),
  afterGC: heap(...after),
});

const emptyProfile = { head: { callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, selfSize: 0, children: [] } };

describe('summariseGc', () => {
  // 40 MiB at the start (2 young, 38 old). Young collection: 16 young -> 2 young, 2 MiB promoted.
  // Full collection: 60 old -> 30. Another young: 14 -> 1, 1 MiB promoted. 10 MiB more by the end.
  const window: GcWindow = {
    usedAtStart: 40 * MiB,
    usedAtEnd: 42 * MiB,
    collections: [
      collection('Scavenge', 3000, [16, 38], [2, 40]),
      collection('MarkSweepCompact', 12_000, [2, 60], [2, 30]),
      collection('Scavenge', 2000, [14, 30], [1, 31]),
    ],
    survivors: emptyProfile,
  };
  const figures = summariseGc(window, 100);

  it("counts as allocated the heap's growth between collections and at both ends", () => {
    // 54 - 40, then 62 - 42, then 44 - 32, then 42 - 32: 14 + 20 + 12 + 10 = 56 MiB.
    expect(figures.allocatedKiBPerRequest).toBeCloseTo((56 * 1024) / 100);
  });

  it('splits the pauses by kind of collection, and counts what young collections promoted', () => {
    expect(figures.youngPauseMicrosecondsPerRequest).toBe(50);
    expect(figures.fullPauseMicrosecondsPerRequest).toBe(120);
    expect([figures.youngCollections, figures.fullCollections]).toEqual([2, 1]);
    expect(figures.promotedKiBPerRequest).toBeCloseTo((3 * 1024) / 100);
    expect(figures.medianYoungSurvivorsKiB).toBeCloseTo(1.5 * 1024);
  });
});

describe('allocationSites', () => {
  const node = (functionName: string, url: string, lineNumber: number, selfSize: number, children: HeapProfileNode[] = []): HeapProfileNode => ({
    callFrame: { functionName, url, lineNumber },
    selfSize,
    children,
  });

  it('adds up each function over every stack it appears in, largest first, named by package or repository path', () => {
    const head = node('(root)', '', -1, 0, [
      node('parseRow', 'file:///x/node_modules/.pnpm/pg@8/node_modules/pg/lib/result.js', 62, 2048, [
        node('', 'file:///work/main/packages/server/dist/chunk.js', 9, 1024),
      ]),
      node('handle', 'file:///x/node_modules/router/index.js', 10, 512, [
        node('parseRow', 'file:///x/node_modules/.pnpm/pg@8/node_modules/pg/lib/result.js', 62, 2048),
      ]),
      node('(V8 API)', '', -1, 4096),
    ]);
    expect(allocationSites(head, 2, 3)).toEqual([
      { site: 'parseRow pg/lib/result.js:63', kiBPerRequest: 2 },
      { site: '(V8 API) (native)', kiBPerRequest: 2 },
      { site: '(anonymous) packages/server/dist/chunk.js:10', kiBPerRequest: 0.5 },
    ]);
  });
});
