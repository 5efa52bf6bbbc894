// One stateful run: fast-check draws sequences of commands, asyncModelRun plays each against a fresh
// pair of accounts of the running service and the model, and a failure is shrunk to its shortest
// sequence, reported with the seed, the path that replays it, and the replay script of that sequence.
// STATEFUL_RUNS sets the number of sequences, STATEFUL_SEED (and STATEFUL_PATH) replay a run.
import fc from 'fast-check';
import { commandArbitraries } from './commands.js';
import type { Model } from './model.js';
import type { Real, Step } from './real.js';
import { replayScript } from './script.js';
import { freshAccounts, type StatefulService } from './service.js';
import { stats } from './stats.js';

export interface RunOptions {
  numRuns: number;
  seed: number;
  /** fast-check's path of a counterexample: replays exactly that (shrunk) sequence. */
  path?: string;
  maxCommands: number;
}

export interface RunOutcome {
  failed: boolean;
  seed: number;
  numRuns: number;
  /** The report of a failure: seed, path, the sequence, and its replay script. */
  report: string;
  /** The shrunk sequence's transcript, when it failed. */
  transcript: readonly Step[];
}

/** The environment's settings, with the defaults a CI run uses. */
export function optionsFromEnvironment(defaults: { numRuns: number; maxCommands: number }): RunOptions {
  const seedText = process.env['STATEFUL_SEED'];
  const runsText = process.env['STATEFUL_RUNS'];
  const path = process.env['STATEFUL_PATH'];
  return {
    numRuns: runsText === undefined || runsText === '' ? defaults.numRuns : Number(runsText),
    seed: seedText === undefined || seedText === '' ? Date.now() % 2_147_483_647 : Number(seedText),
    ...(path === undefined || path === '' ? {} : { path }),
    maxCommands: defaults.maxCommands,
  };
}

/** The assertion's message with what was expected and what came, in full (the message abbreviates them). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { actual, expected } = error as Error & { actual?: unknown; expected?: unknown };
  if (actual === undefined && expected === undefined) return error.message;
  return `${error.message}\n  expected: ${JSON.stringify(expected)}\n  actual:   ${JSON.stringify(actual)}`;
}

export async function runStateful(service: StatefulService, options: RunOptions): Promise<RunOutcome> {
  let lastFailure: { transcript: Step[]; fixture: { clientIds: number[]; foreignClientId: number }; message: string } | undefined;
  const property = fc.asyncProperty(fc.commands(commandArbitraries(), { maxCommands: options.maxCommands, size: 'max' }), async (commands) => {
    stats.sequences += 1;
    const accounts = await freshAccounts(service.database);
    const real: Real = { base: service.url, tokens: accounts.tokens, transcript: [] };
    const model: Model = {
      accountId: accounts.accountId,
      currency: accounts.currency,
      clients: accounts.clients,
      foreignClientId: accounts.foreignClientId,
      invoices: new Map(),
      deliveries: new Map(),
      attachments: new Map(),
      answers: [],
      links: new Map(),
      cursors: new Map(),
      nextInvoiceNumber: 1,
      nextDeliveryNumber: 1,
      keyCounter: 0,
    };
    try {
      await fc.asyncModelRun(() => ({ model, real }), commands);
    } catch (error) {
      stats.failures += 1;
      lastFailure = {
        transcript: real.transcript,
        fixture: { clientIds: accounts.clients.map((client) => client.id), foreignClientId: accounts.foreignClientId },
        message: describeError(error),
      };
      throw error;
    }
  });
  const details = await fc.check(property, {
    numRuns: options.numRuns,
    seed: options.seed,
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  if (!details.failed || lastFailure === undefined) return { failed: false, seed: details.seed, numRuns: details.numRuns, report: '', transcript: [] };
  const path = details.counterexamplePath ?? '';
  const sequence = String(details.counterexample?.[0] ?? '');
  const script = replayScript(lastFailure.transcript, lastFailure.fixture, { seed: details.seed, path, message: lastFailure.message });
  const report = [
    `The stateful run failed on ${service.engine} after ${details.numRuns} sequence(s), shrunk ${details.numShrinks} time(s).`,
    `Replay exactly this sequence: STATEFUL_SEED=${details.seed} STATEFUL_PATH='${path}' pnpm --filter @invoice-api/robustness stateful`,
    `The whole run again: STATEFUL_SEED=${details.seed} STATEFUL_RUNS=${options.numRuns} pnpm --filter @invoice-api/robustness stateful`,
    '',
    `What disagreed: ${lastFailure.message}`,
    '',
    `The minimal sequence (fast-check): ${sequence}`,
    '',
    'As a script (curl and jq):',
    '',
    script,
  ].join('\n');
  return { failed: true, seed: details.seed, numRuns: details.numRuns, report, transcript: lastFailure.transcript };
}
