// `pnpm bench -- --duties`: what each of the service's duties costs on top of express alone, and what
// is left for the service's own per-operation work. Sides, in interleaved rounds on fresh processes
// warmed alike: express alone (bare-server.ts's handler as the only routes of an express 5 app), the
// same with each rung of bare-duties.ts in front (every rung holds the one before), and the service.
// The CPU target is the service within 1.5x of express alone: a rung already above it says that no
// work inside the service reaches the target while it keeps those duties done the way it does them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleavedRounds, ratioSpread, roundByRoundRatio, type AbSide, type AbSideResult } from './ab.js';
import { startBare } from './bare.js';
import { dutyRungs, type DutyRung } from './bare-duties.js';
import { benchInvoiceId } from './bench-invoice.js';
import { preparedPostgresDatabase } from './dataset/prepare.js';
import { maxExpressRatio } from './express-floor.js';
import type { Measure } from './figures.js';
import { spreadText, times } from './format.js';
import { describeMeasure, type Profile } from './profiles.js';
import { abSidesTable } from './report.js';
import { benchAccountId, getInvoiceScenario, searchScenarios, type SearchScenario } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import { mintDevToken } from './server-modules.js';
import { raisedRateLimits, startService } from './service.js';
import { markdownTable, type Cell } from './table.js';

export interface DutiesRunOptions {
  profile: Profile;
  postgresServerUrl: string;
  databaseName: string;
  rounds: number;
  measure: Measure;
  log: (line: string) => void;
}

/** How the report names each rung's side: what it adds to the rung below. */
export const rungNames: Readonly<Record<DutyRung, string>> = {
  validator: '+ express.json() and express-openapi-validator (as the service configures it)',
  'every request': '+ request id, log line, security headers',
  guarded: '+ metrics, operation resolution, token (cached), rate limit, scope',
  'answers checked': "+ every answer checked against the spec (the service's compiled check)",
};

const expressName = 'express alone (same handler)';
const serviceName = 'the service';
const milliseconds = (value: number): string => value.toFixed(3);

/** The scenarios of the CPU target: getInvoice and the search of one client's invoices. */
async function scenariosOf(profile: Profile, url: string): Promise<SearchScenario[]> {
  const search = searchScenarios(profile).find((scenario) => scenario.name === 'client_id =');
  if (search === undefined) throw new Error("No search scenario named 'client_id ='");
  return [getInvoiceScenario(await benchInvoiceId(url)), search];
}

/** A side's CPU per request over express alone's, each round's two sides paired. */
const cpuRatioByRound = (side: AbSideResult, floor: AbSideResult) => roundByRoundRatio(side, floor, (figures) => figures.cpuMsPerRequest);

/** Each side against express alone, and what it adds to the side before it. */
function ladderTable(results: readonly AbSideResult[]): string {
  const floor = results[0]!;
  const rows: Cell[][] = results.map((side, index) => {
    const before = index === 0 ? undefined : results[index - 1]!;
    const added = before === undefined ? undefined : side.cpuMsPerRequest.median - before.cpuMsPerRequest.median;
    return [
      side.name,
      spreadText(side.cpuMsPerRequest, milliseconds),
      index === 0 ? '1.00x' : spreadText(ratioSpread(side.cpuMsPerRequest, floor.cpuMsPerRequest), times),
      index === 0 ? '1.00x' : spreadText(cpuRatioByRound(side, floor), times),
      added === undefined ? '' : `${added >= 0 ? '+' : ''}${milliseconds(added)}`,
      added === undefined ? '' : `${Math.round((added / floor.cpuMsPerRequest.median) * 100)}%`,
    ];
  });
  return markdownTable(
    [
      'side',
      'CPU ms/req median (range)',
      'vs express alone: medians (any rounds)',
      'vs express alone round by round: median (range)',
      'added to the side above, ms/req (medians)',
      'of express alone',
    ],
    rows,
  );
}

function reading(scenario: string, results: readonly AbSideResult[]): string {
  const floor = results[0]!;
  const top = results[results.length - 2]!;
  const service = results[results.length - 1]!;
  const dutiesRatio = ratioSpread(top.cpuMsPerRequest, floor.cpuMsPerRequest);
  const dutiesByRound = cpuRatioByRound(top, floor);
  const serviceRatio = ratioSpread(service.cpuMsPerRequest, floor.cpuMsPerRequest);
  const ownMs = service.cpuMsPerRequest.median - top.cpuMsPerRequest.median;
  const budgetMs = (maxExpressRatio - 1) * floor.cpuMsPerRequest.median;
  const dutiesMs = top.cpuMsPerRequest.median - floor.cpuMsPerRequest.median;
  const target = times(maxExpressRatio);
  const byRound = `${spreadText(dutiesByRound, times)} round by round`;
  // Judged only on every round: a round without a CPU figure would otherwise drop out of "every round".
  const verdict =
    dutiesByRound.rounds < dutiesByRound.of
      ? `not judged: CPU per request missing in ${dutiesByRound.of - dutiesByRound.rounds} of ${dutiesByRound.of} rounds`
      : dutiesRatio.min > maxExpressRatio
        ? `above the ${target} target over every pairing of rounds`
        : dutiesByRound.min > maxExpressRatio
          ? `above the ${target} target in each of the ${dutiesByRound.of} rounds (${byRound})`
          : dutiesByRound.max > maxExpressRatio
            ? `at the ${target} target within the rounds' noise (${byRound})`
            : `at or under the ${target} target in each of the ${dutiesByRound.of} rounds (${byRound}), so what the service spends beyond the target is its own per-operation work`;
  const ownWork =
    scenario === 'getInvoice'
      ? "path ids, preconditions, the query builder, the row's mapping"
      : "the body's bounds, the search's parse and statements, the cursor, the query builder, the rows' mapping";
  return (
    `Reading, ${scenario}: the duties every request of the service carries cost ${milliseconds(dutiesMs)} ms per request over express alone ` +
    `(${spreadText(dutiesRatio, times)} express alone's CPU) before any of the service's per-operation work: ${verdict}. The target's whole budget is ${milliseconds(budgetMs)} ms. ` +
    `The service spends ${spreadText(serviceRatio, times)}; its per-operation work (${ownWork}) is the remaining ${milliseconds(ownMs)} ms (medians).`
  );
}

export async function runDuties(options: DutiesRunOptions): Promise<string> {
  const { profile, log } = options;
  const url = await preparedPostgresDatabase(options.postgresServerUrl, options.databaseName, profile.postgres, log);
  const keyDirectory = await mkdtemp(join(tmpdir(), 'invoice-bench-duties-'));
  try {
    const devKeyFile = join(keyDirectory, 'dev-key.json');
    const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 3600 });
    // The rungs read the service's settings: its development key and the same raised rate limits.
    const serviceSettings = { DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits };
    const bare = (duties?: DutyRung) => () =>
      startBare({ databaseUrl: url, poolSize: profile.connections, framework: 'express', ...(duties === undefined ? {} : { duties, env: serviceSettings }) });
    const sides: AbSide[] = [
      { name: expressName, start: bare() },
      ...dutyRungs.map((rung) => ({ name: rungNames[rung], start: bare(rung) })),
      { name: serviceName, start: () => startService({ databaseUrl: url, devKeyFile, metrics: true }) },
    ];
    const started = performance.now();
    const sections: string[] = [];
    for (const scenario of await scenariosOf(profile, url)) {
      log(`${scenario.name}: express alone, ${dutyRungs.length} rungs of duties, the service; ${options.rounds} interleaved rounds`);
      const results = await interleavedRounds({
        sides,
        rounds: options.rounds,
        measure: (serverUrl) => scenarioOnce(serverUrl, token, scenario, profile.connections, options.measure),
        warmUp: (serverUrl) => scenarioOnce(serverUrl, token, scenario, profile.connections, { requests: profile.abWarmUpRequests }),
        log,
      });
      sections.push(`### ${scenario.name}`, '', abSidesTable(results), '', ladderTable(results), '', reading(scenario.name, results), '');
    }
    const seconds = (performance.now() - started) / 1000;
    return [
      `## The service's duties, rung by rung on express alone (\`pnpm bench -- --duties\`, ${profile.postgres.invoices.toLocaleString('en-US')} invoices)`,
      '',
      `${options.rounds} interleaved rounds of ${describeMeasure(options.measure)} per side at ${profile.connections} connections, the order rotated each round, ` +
        `each round on a fresh process per side warmed by the same ${profile.abWarmUpRequests.toLocaleString('en-US')} discarded requests; ` +
        "median and range over the rounds. Each rung is express alone's handler with the service's own modules for those duties in front " +
        '(bare-duties.ts); each row adds its duties to the row above. The service keeps its Prometheus metrics as the top rung does. ' +
        'express alone and the rungs run their TypeScript through tsx, the service its bundle (pnpm build): the same code once loaded, ' +
        "but tsx keeps function names with a call per function made, a few µs per request charged to the rungs' side. " +
        'CPU ratios two ways: the ratio of the medians with the range over every pairing of any round of one side with any of the other ' +
        '(the widest the rounds allow), and round by round: the ratio of the two sides in the same round, under a minute apart, with its ' +
        `median and range (a slow stretch of the machine longer than that falls on both). These rounds took ${seconds.toFixed(0)} s.`,
      '',
      ...sections,
    ].join('\n');
  } finally {
    await rm(keyDirectory, { recursive: true, force: true });
  }
}
