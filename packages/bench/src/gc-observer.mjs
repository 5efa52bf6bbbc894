// Preloaded into a measured server (`node --import`) by `pnpm bench -- --gc` (gc-run.ts). Plain
// JavaScript: the service runs its compiled bundle, without tsx. SIGUSR2 opens a window and the
// next SIGUSR2 closes it, writing to GC_OBSERVER_OUTPUT:
// - every garbage collection of the window (node:v8's GCProfiler: its kind, its pause, the heap's
//   spaces before and after), with the heap's used size at both ends, so that what the window
//   allocated is known exactly;
// - a sampling heap profile of the objects that outlived a young-generation collection: V8's
//   sampling heap profiler drops a sample when a collection frees its object, unless told to keep
//   it; told to keep only what full collections free, it keeps exactly what was promoted or is
//   still alive, which a profile of live objects (`--heap-prof`) would not show once collected.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { getHeapStatistics, GCProfiler } from 'node:v8';

const output = process.env.GC_OBSERVER_OUTPUT;
const session = new Session();
session.connect();
let openWindow;

async function open() {
  const gc = new GCProfiler();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
  gc.start();
  return { gc, usedAtStart: getHeapStatistics().used_heap_size };
}

async function close({ gc, usedAtStart }) {
  const usedAtEnd = getHeapStatistics().used_heap_size;
  const collections = gc.stop();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(output, JSON.stringify({ usedAtStart, usedAtEnd, collections: collections.statistics, survivors: profile }));
}

if (output !== undefined) {
  process.on('SIGUSR2', () => {
    const opened = openWindow;
    openWindow = opened === undefined ? open() : undefined;
    if (opened !== undefined) void opened.then(close);
  });
}
