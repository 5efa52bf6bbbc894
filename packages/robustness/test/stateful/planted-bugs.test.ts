// Proof that the stateful run finds bugs between operations: each planted bug (planted-bugs.ts) is
// switched on in turn, and a run with a fixed seed, within the CI budget, must fail and shrink to a
// sequence whose last step is the disagreement. The seeds are ones known to catch each bug; another
// seed catches them too, given enough sequences (STATEFUL_RUNS=200 and no STATEFUL_SEED to see).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handlersWithPlantedBugs } from './planted-bugs.js';
import { planted, type PlantedBug } from './planted-switch.js';
import { runStateful } from './run.js';
import { startStatefulService, type StatefulService } from './service.js';

// The replay bug: the request fingerprint forgets the body, so a reused key with another body is
// answered with the first answer instead of 422.
vi.mock('../../../server/src/idempotency/fingerprint.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../server/src/idempotency/fingerprint.js')>();
  const { planted: switches } = await import('./planted-switch.js');
  return {
    ...original,
    requestFingerprint: (operationId: string, path: string, body: unknown) =>
      original.requestFingerprint(operationId, path, switches.bug === 'replay ignores the body' ? null : body),
  };
});

const cases: Array<{ bug: PlantedBug; seed: number; disagreement: RegExp }> = [
  { bug: 'search total off by one after a status change', seed: 1, disagreement: /total/ },
  { bug: 'replay ignores the body', seed: 1, disagreement: /422|idempotency_key_reused/ },
  { bug: 'update allowed on an issued delivery', seed: 1, disagreement: /409|already_issued/ },
  { bug: 'removal allowed on an invoice that left draft', seed: 1, disagreement: /409|invoice_locked/ },
];

describe('the stateful run catches each planted bug (PGlite)', () => {
  let service: StatefulService;
  beforeAll(async () => {
    service = await startStatefulService('pglite', handlersWithPlantedBugs());
  });
  afterAll(async () => {
    planted.bug = undefined;
    await service?.close();
  });

  // An upper bound that only ends a hung run: each case starts a broken service and runs sequences until
  // the model disagrees (seconds when idle; fast-check's shrinking adds more on a saturated machine).
  it.each(cases)('$bug', { timeout: 240_000 }, async ({ bug, seed, disagreement }) => {
    planted.bug = bug;
    try {
      const outcome = await runStateful(service, { numRuns: Number(process.env['PLANTED_RUNS'] ?? 40), seed, maxCommands: 50 });
      expect(outcome.failed, `seed ${seed} no longer catches "${bug}": pick another with STATEFUL_SEED`).toBe(true);
      expect(outcome.report).toMatch(disagreement);
      // The report is ready to use: the replay command and a script whose last call is the culprit.
      expect(outcome.report).toContain(`STATEFUL_SEED=${outcome.seed} STATEFUL_PATH=`);
      expect(outcome.report).toContain('#!/usr/bin/env bash');
      expect(outcome.transcript.length).toBeGreaterThan(1);
      console.info(`"${bug}" caught (seed ${seed}), shrunk to ${outcome.transcript.length} calls:\n${outcome.report}`);
    } finally {
      planted.bug = undefined;
    }
  });
});
