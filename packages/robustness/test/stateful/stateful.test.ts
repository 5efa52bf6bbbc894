// The API as sequences of calls, checked against a model after every call, on both engines: each
// file starts one service per engine, and each sequence works in two fresh accounts. See run.ts for
// the knobs (STATEFUL_RUNS, STATEFUL_SEED, STATEFUL_PATH) and packages/robustness/README.md ("The
// stateful test") for how to read a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allLinkNames } from './links.js';
import { optionsFromEnvironment, runStateful } from './run.js';
import { startStatefulService, type Engine, type StatefulService } from './service.js';
import { resetStats, stats } from './stats.js';

const options = optionsFromEnvironment({ numRuns: 25, maxCommands: 40 });

describe.each<Engine>(['pglite', 'postgres'])('the stateful run on %s', (engine) => {
  let service: StatefulService;
  beforeAll(async () => {
    service = await startStatefulService(engine);
  });
  afterAll(async () => {
    await service?.close();
  });

  // A long run (STATEFUL_RUNS) gets the time it needs; the CI run stays far below this bound.
  // An upper bound that only ends a hung run, grown with the number of sequences (each starts from fresh
  // accounts and makes up to 40 calls over HTTP).
  it(`agrees with the model over ${options.numRuns} sequences`, { timeout: Math.max(120_000, options.numRuns * 6_000) }, async () => {
    resetStats();
    const outcome = await runStateful(service, options);
    const figures = [
      `stateful run on ${engine}: seed ${options.seed}`,
      `sequences ${stats.sequences}, commands ${stats.commands}, distinct operations ${stats.operations.size} (${[...stats.operations].sort().join(', ')})`,
      `links followed ${stats.links.size} of ${allLinkNames().length} (${[...stats.links].sort().join(', ')})`,
      `failing sequences ${stats.failures} (the first failure and its shrinking)`,
    ];
    console.info(figures.join('\n  '));
    if (outcome.failed) console.error(outcome.report);
    expect(outcome.failed, outcome.report).toBe(false);
    // A run that only ever created things would agree with any model: the sequences must reach the
    // reads, updates, searches and replays too.
    expect(stats.operations.size).toBeGreaterThanOrEqual(10);
  });
});
