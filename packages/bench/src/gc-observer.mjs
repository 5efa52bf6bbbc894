// Preloaded into a measured server (`node --import`) by `pnpm bench -- --gc` (gc-run.ts). Plain
// JavaScript: the service runs its compiled bundle, without tsx. SIGUSR2 opens a window (and writes
// GC_OBSERVER_OUTPUT.opened once it is open); the next SIGUSR2 closes it and writes, to
// GC_OBSERVER_OUTPUT (written whole under another name, then renamed):
// - every garbage collection of the window (node:v8's GCProfiler: its kind, its pause, the heap's
//   spaces before and after), with the JS heap's used size at both ends, so that what the window
//   allocated on the JS heap is known to the byte (Buffers' memory lies outside it);
// - a sampling heap profile of the objects that outlived a young-generation collection: V8's
//   sampling heap profiler drops a sample when a collection frees its object, unless told to keep
//   it; told to keep only what full collections free, it keeps what was promoted or is still alive
//   when the window closes, which a profile of live objects (`--heap-prof`) would not show once
//   collected.
// A failure is written to GC_OBSERVER_OUTPUT as `{ "error": ... }`: the server goes on serving.
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { GCProfiler, getHeapStatistics } from 'node:v8';

const output = process.env.GC_OBSERVER_OUTPUT;

function writeWhole(path, text) {
  writeFileSync(`${path}.partial`, text);
  renameSync(`${path}.partial`, path);
}

async function open(session) {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
  const gc = new GCProfiler();
  gc.start();
  const window = { gc, usedAtStart: getHeapStatistics().used_heap_size };
  writeWhole(`${output}.opened`, '');
  return window;
}

async function close(session, { gc, usedAtStart }) {
  const usedAtEnd = getHeapStatistics().used_heap_size;
  const collections = gc.stop();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeWhole(output, JSON.stringify({ usedAtStart, usedAtEnd, collections: collections.statistics, survivors: profile }));
}

if (output !== undefined) {
  const session = new Session();
  session.connect();
  let opening;
  const fail = (error) => writeWhole(output, JSON.stringify({ error: String(error?.stack ?? error) }));
  process.on('SIGUSR2', () => {
    if (opening === undefined) {
      opening = open(session);
      opening.catch(fail);
    } else {
      const opened = opening;
      opening = undefined;
      opened.then((window) => close(session, window)).catch(fail);
    }
  });
}
