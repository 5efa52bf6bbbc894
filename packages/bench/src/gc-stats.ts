// What gc-observer.mjs wrote for one window, per request: what the process allocated, what the
// collector spent, what outlived a young-generation collection, and where those survivors were
// allocated. Two processes that allocate the same per request can still differ in the collector's
// cost by what survives: a young collection copies every live object, and promotes to the old
// generation what survives twice, which only a full collection frees again.
import { spread } from './ab.js';

/** One heap space's figures, as node:v8's GCProfiler reports them. */
interface HeapSpace {
  spaceName: string;
  spaceUsedSize: number;
}

interface HeapState {
  heapStatistics: { usedHeapSize: number };
  heapSpaceStatistics: HeapSpace[];
}

/** One collection, as node:v8's GCProfiler reports it (`cost` in microseconds). */
export interface Collection {
  gcType: string;
  cost: number;
  beforeGC: HeapState;
  afterGC: HeapState;
}

/** A node of V8's sampling heap profile (the inspector's HeapProfiler.SamplingHeapProfileNode). */
export interface HeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapProfileNode[];
}

/** What gc-observer.mjs writes. */
export interface GcWindow {
  usedAtStart: number;
  usedAtEnd: number;
  collections: Collection[];
  survivors: { head: HeapProfileNode };
}

export interface GcFigures {
  requests: number;
  /** Bytes the JS heap grew by between collections and at both ends of the window: what was allocated on it (Buffers' memory lies outside). */
  allocatedKiBPerRequest: number;
  youngCollections: number;
  fullCollections: number;
  /** The collector's pauses on the main thread, young and full collections (incremental steps included in full). */
  youngPauseMicrosecondsPerRequest: number;
  fullPauseMicrosecondsPerRequest: number;
  /** Bytes the young collections moved to the old generation. */
  promotedKiBPerRequest: number;
  /** Bytes left in the young generation after a young collection: its median over the window's. */
  medianYoungSurvivorsKiB: number;
}

const youngKinds = new Set(['Scavenge', 'MinorMarkCompact', 'MinorMarkSweep']);
const youngSpaces = new Set(['new_space', 'new_large_object_space']);

function spaceBytes(state: HeapState, young: boolean): number {
  return state.heapSpaceStatistics.filter((space) => youngSpaces.has(space.spaceName) === young).reduce((sum, space) => sum + space.spaceUsedSize, 0);
}

export function summariseGc(window: GcWindow, requests: number): GcFigures {
  let allocated = 0;
  let usedBefore = window.usedAtStart;
  let youngPause = 0;
  let fullPause = 0;
  let promoted = 0;
  const youngSurvivors: number[] = [];
  for (const collection of window.collections) {
    allocated += Math.max(0, collection.beforeGC.heapStatistics.usedHeapSize - usedBefore);
    usedBefore = collection.afterGC.heapStatistics.usedHeapSize;
    if (youngKinds.has(collection.gcType)) {
      youngPause += collection.cost;
      promoted += Math.max(0, spaceBytes(collection.afterGC, false) - spaceBytes(collection.beforeGC, false));
      youngSurvivors.push(spaceBytes(collection.afterGC, true));
    } else {
      fullPause += collection.cost;
    }
  }
  allocated += Math.max(0, window.usedAtEnd - usedBefore);
  const perRequest = (bytes: number): number => bytes / 1024 / requests;
  return {
    requests,
    allocatedKiBPerRequest: perRequest(allocated),
    youngCollections: youngSurvivors.length,
    fullCollections: window.collections.filter((collection) => collection.gcType === 'MarkSweepCompact').length,
    youngPauseMicrosecondsPerRequest: youngPause / requests,
    fullPauseMicrosecondsPerRequest: fullPause / requests,
    promotedKiBPerRequest: perRequest(promoted),
    medianYoungSurvivorsKiB: spread(youngSurvivors).median / 1024,
  };
}

export interface AllocationSite {
  /** `function file:line`, the file from its package (`pg/lib/client.js`) or its path in the repository. */
  site: string;
  kiBPerRequest: number;
}

/** Where a URL's code lives, short: from node_modules its package path, else from the repository's packages. */
function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const packages = url.indexOf('/packages/');
  return packages >= 0 ? url.slice(packages + 1) : url;
}

/** The functions that allocated the most sampled bytes (self), largest first. */
export function allocationSites(head: HeapProfileNode, requests: number, count: number): AllocationSite[] {
  const bytes = new Map<string, number>();
  const visit = (node: HeapProfileNode): void => {
    if (node.selfSize > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      // lineNumber is 0-based in the inspector's call frames.
      const site = `${functionName === '' ? '(anonymous)' : functionName} ${url === '' ? '(native)' : `${shortUrl(url)}:${lineNumber + 1}`}`;
      bytes.set(site, (bytes.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) visit(child);
  };
  visit(head);
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([site, size]) => ({ site, kiBPerRequest: size / 1024 / requests }));
}
