// getInvoice and the `client_id =` search four ways, in the same interleaved rounds: the bare
// node:http handler, the same handler on express 5 with no middleware (bare-server.ts), the service,
// and what a team would write by hand instead (peer-server.ts: the same duties, each library wired as
// its README shows). Two sections come out of the rounds: what express alone costs (express-floor.ts)
// and the service against the hand-wired peer, where the database's work counts too: each round also
// reads the CPU time of PostgreSQL's backends and, where the server has pg_stat_statements, what every
// statement cost (database-cpu.ts). The service keeps its Prometheus metrics here (METRICS_PORT), as
// the peer keeps its prom-client histogram.
import { describeProcesses, interleavedRounds, ratioSpread, roundByRoundRatio, totalCpuOf, type AbSide, type AbSideResult, type Spread } from './ab.js';
import { startBare } from './bare.js';
import { benchInvoiceId } from './bench-invoice.js';
import type { RunningServer } from './child-process.js';
import { DatabaseCpuMeter, type StatementCost } from './database-cpu.js';
import { expressFloorOf, type FloorResult } from './express-floor.js';
import { halfOf, type Figures } from './figures.js';
import { spreadText, times } from './format.js';
import { startPeer } from './peer.js';
import { describeMeasure } from './profiles.js';
import { judgeRatio, type RatioVerdict } from './ratio-target.js';
import { abSidesTable } from './report.js';
import { getInvoiceScenario, searchScenarios, type SearchScenario } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import type { ReportSection, SectionContext, SectionTarget } from './sections.js';
import { startService } from './service.js';
import { markdownTable, type Cell } from './table.js';

/** The search of one client's invoices: the search scenario whose service CPU is closest to bare Node's floor. */
const comparedSearch = 'client_id =';

/** The service's CPU per request (its own, and with PostgreSQL's) at most this multiple of the peer's. */
export const maxPeerCpuRatio = 0.8;
/** The service's requests per second at least this multiple of the peer's. */
export const minPeerThroughputRatio = 1.25;

const sideNames = {
  bare: 'bare node:http',
  express: 'express alone (same handler)',
  service: 'service',
  peer: 'hand-wired peer',
} as const;

interface ScenarioRounds {
  scenario: SearchScenario;
  bare: AbSideResult;
  express: AbSideResult;
  service: AbSideResult;
  peer: AbSideResult;
}

/**
 * The four sides. Fresh processes rather than the run's running service and bare handler: those were
 * warmed by other requests, and every side here must have seen exactly the same ones. Only a profile
 * that shares processes (smoke, server-share.ts) measures the run's bare handler as the bare side.
 */
function sidesOf(context: SectionContext): AbSide[] {
  const { profile, databaseUrl, devKeyFile, share } = context;
  return [
    { name: sideNames.bare, start: () => startBare({ databaseUrl, poolSize: profile.connections, share }) },
    { name: sideNames.express, start: () => startBare({ databaseUrl, poolSize: profile.connections, framework: 'express', share }) },
    { name: sideNames.service, start: () => startService({ databaseUrl, devKeyFile, metrics: true, share }) },
    { name: sideNames.peer, start: () => startPeer({ databaseUrl, devKeyFile }) },
  ];
}

/**
 * With one process per side (the quick and smoke runs), each side's process serves both scenarios:
 * started once, warmed for each scenario by its own warm-up as before, stopped after the last. The
 * sides handed to the rounds then start nothing and stop nothing.
 */
async function sharedSides(sides: readonly AbSide[], log: (line: string) => void): Promise<{ sides: AbSide[]; stop: () => Promise<void> }> {
  const running: RunningServer[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(running.map((server) => server.stop()));
  };
  try {
    for (const side of sides) {
      log(`  starting: ${side.name} (one process for both scenarios)`);
      running.push(await side.start());
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const kept = running.map((server, index) => ({
    name: sides[index]!.name,
    start: async (): Promise<RunningServer> => ({ ...server, stop: async () => null }),
  }));
  return { sides: kept, stop };
}

async function roundsOf(
  context: SectionContext,
  scenario: SearchScenario,
  sides: readonly AbSide[],
  database: DatabaseCpuMeter | undefined,
): Promise<ScenarioRounds> {
  const { profile, token, log } = context;
  const measure = halfOf(profile.measure);
  log(`${scenario.name}: bare node:http vs express alone vs the service vs the hand-wired peer, ${profile.abRounds} interleaved rounds`);
  const [bare, express, service, peer] = await interleavedRounds({
    sides,
    rounds: profile.abRounds,
    processes: profile.abProcesses,
    measure: (url) => scenarioOnce(url, token, scenario, profile.connections, measure),
    warmUp: (url) => scenarioOnce(url, token, scenario, profile.connections, { requests: profile.abWarmUpRequests }),
    ...(database === undefined ? {} : { database }),
    log,
  });
  if (bare === undefined || express === undefined || service === undefined || peer === undefined)
    throw new Error('interleavedRounds returned fewer sides than it was given');
  return { scenario, bare, express, service, peer };
}

/** A ratio as "median (range)"; "n/a" when either side was not measured. */
function ratioText(ratio: Spread): string {
  return Number.isFinite(ratio.median) ? spreadText(ratio, times) : 'n/a';
}

/** The figures the peer's targets compare, each from one round of one side. */
const figureOf = {
  ownCpu: (figures: Figures) => figures.cpuMsPerRequest,
  databaseCpu: (figures: Figures) => figures.databaseCpuMsPerRequest,
  totalCpu: totalCpuOf,
  throughput: (figures: Figures) => figures.requestsPerSecond,
} as const;

/** Each side's statements per request, from pg_stat_statements. */
function statementTable(sides: ReadonlyArray<{ name: string; statements: readonly StatementCost[] }>): string {
  const rows: Cell[][] = [];
  for (const side of sides) {
    for (const cost of side.statements) {
      rows.push([
        side.name,
        cost.query.length > 160 ? `${cost.query.slice(0, 157)}...` : cost.query,
        cost.callsPerRequest.toFixed(2),
        cost.rowsPerCall.toFixed(1),
        cost.hitPerCall.toFixed(1),
        cost.readPerCall.toFixed(1),
        cost.execMsPerCall.toFixed(3),
        Number.isFinite(cost.planMsPerCall) ? cost.planMsPerCall.toFixed(3) : 'n/a',
      ]);
    }
  }
  return markdownTable(['side', 'statement', 'calls/req', 'rows/call', 'buffers hit/call', 'read/call', 'exec ms/call', 'plan ms/call'], rows);
}

function peerSectionPart(rounds: ScenarioRounds, measure: string, connections: number): { body: string; targets: SectionTarget[] } {
  const { scenario, service, peer } = rounds;
  const cpuTarget = { bound: 'at most', limit: maxPeerCpuRatio } as const;
  const ownCpu = judgeRatio(service, peer, figureOf.ownCpu, cpuTarget);
  // Reported, not a target: PostgreSQL's share of the total.
  const databaseCpu = {
    anyPairing: ratioSpread(service.databaseCpuMsPerRequest, peer.databaseCpuMsPerRequest),
    byRound: roundByRoundRatio(service, peer, figureOf.databaseCpu),
  };
  const totalCpu = judgeRatio(service, peer, figureOf.totalCpu, cpuTarget);
  const throughput = judgeRatio(service, peer, figureOf.throughput, { bound: 'at least', limit: minPeerThroughputRatio });
  const row = (name: string, ratio: Pick<RatioVerdict, 'anyPairing' | 'byRound'>, target: string): Cell[] => [
    name,
    ratioText(ratio.anyPairing),
    ratioText(ratio.byRound),
    target,
  ];
  const lines = [
    `### ${scenario.name}`,
    '',
    `${measure} per round. CPU ms/req is the process's own; PostgreSQL's is that of the backends serving the side's connections.`,
    '',
    abSidesTable([service, peer]),
    '',
    markdownTable(
      ['service / hand-wired peer', 'medians, range over every pairing of rounds', 'round by round: median (range)', 'target'],
      [
        row('process CPU per request', ownCpu, `<= ${maxPeerCpuRatio.toFixed(2)}x`),
        row("PostgreSQL's CPU per request", databaseCpu, 'reported'),
        row("process + PostgreSQL's CPU per request", totalCpu, `<= ${maxPeerCpuRatio.toFixed(2)}x`),
        row('requests per second', throughput, `>= ${minPeerThroughputRatio.toFixed(2)}x`),
      ],
    ),
  ];
  if (service.statements !== undefined && peer.statements !== undefined) {
    lines.push(
      '',
      'Statements per request (pg_stat_statements over every round; a statement is known by its parse tree, so where both sides send the same one it shows under one text):',
      '',
      statementTable([
        { name: sideNames.service, statements: service.statements },
        { name: sideNames.peer, statements: peer.statements },
      ]),
    );
  }
  return {
    body: lines.join('\n'),
    targets: [
      {
        target: `${scenario.name}: the service's process CPU per request <= ${maxPeerCpuRatio.toFixed(1)}x the hand-wired peer's, whole range`,
        measured: ownCpu.measured,
        met: ownCpu.met,
      },
      {
        target: `${scenario.name}: the service's process + PostgreSQL's CPU per request <= ${maxPeerCpuRatio.toFixed(1)}x the hand-wired peer's, whole range`,
        measured:
          totalCpu.byRound.rounds === 0
            ? "not measured (PostgreSQL's backends not on this machine)"
            : `${totalCpu.measured} (PostgreSQL's alone ${ratioText(databaseCpu.anyPairing)})`,
        met: totalCpu.met,
      },
      {
        target: `${scenario.name}: the service's requests per second >= ${minPeerThroughputRatio.toFixed(2)}x the hand-wired peer's at ${connections} connections, whole range`,
        measured: throughput.measured,
        met: throughput.met,
      },
    ],
  };
}

/** The rounds of both scenarios, and the two sections made from them. */
export async function handWiredSections(context: SectionContext): Promise<ReportSection[]> {
  const { profile, databaseUrl, log } = context;
  const started = performance.now();
  const search = searchScenarios(profile).find((scenario) => scenario.name === comparedSearch);
  if (search === undefined) throw new Error(`No search scenario named '${comparedSearch}'`);
  const meter = await DatabaseCpuMeter.open(databaseUrl);
  const database = typeof meter === 'string' ? undefined : meter;
  if (typeof meter === 'string') log(`PostgreSQL's CPU is not measured: ${meter}`);
  const all: ScenarioRounds[] = [];
  const shared = profile.abProcesses === 'one per side' ? await sharedSides(sidesOf(context), log) : undefined;
  try {
    const sides = shared?.sides ?? sidesOf(context);
    for (const scenario of [getInvoiceScenario(await benchInvoiceId(databaseUrl)), search]) all.push(await roundsOf(context, scenario, sides, database));
  } finally {
    await shared?.stop();
    await database?.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const measure = describeMeasure(halfOf(profile.measure));
  const floors: FloorResult[] = all.map((rounds) => expressFloorOf(rounds.scenario.name, measure, rounds.bare, rounds.express, rounds.service));
  const rounding =
    `${profile.abRounds} interleaved rounds per side (the order rotated each round: bare, express, service, peer; express, service, peer, bare; ...) ` +
    `at ${profile.connections} connections, ${describeProcesses(profile.abProcesses)}${shared === undefined ? '' : ' (one process per side for both scenarios, getInvoice first)'}, ` +
    `warmed first by the same ${profile.abWarmUpRequests.toLocaleString('en-US')} discarded requests of the scenario; median and range over the rounds. ` +
    'Ratios two ways: the ratio of the medians with the range over every pairing of a round of one side with a round of the other (a target is met ' +
    'only when this whole range meets it), and round by round: the two sides of the same round, under a minute apart, and in how many rounds the target held. ';
  const floorBody = [
    rounding +
      '"express alone" is bare-server.ts\'s handler mounted as a route of an express 5 app with ' +
      'no middleware (X-Powered-By and ETag off), answering with the same writeHead and end; both run the SQL the service runs, captured once. ' +
      'The service keeps its Prometheus metrics (METRICS_PORT), as the hand-wired peer of the next section keeps its histogram. ' +
      `These rounds, with the next section's, took ${seconds.toFixed(0)} s.`,
    '',
    ...floors.map((floor) => floor.body),
  ].join('\n');
  const peerParts = all.map((rounds) => peerSectionPart(rounds, measure, profile.connections));
  const databaseNote =
    database === undefined
      ? `PostgreSQL's CPU was not measured in this run: ${meter as string}.`
      : "PostgreSQL's CPU per request is that of the client backends of the benchmark database (and their parallel workers), from /proc, sampled every 50 ms " +
        'through each round so that a backend that exits mid-round is counted up to its exit (database-cpu.ts); cluster-wide processes (checkpointer, WAL writer, ' +
        `autovacuum) are left out. ${database.hasStatements ? 'The statements come from pg_stat_statements, read before and after each round.' : 'This server has no pg_stat_statements (shared_preload_libraries): statements per request are not listed.'}`;
  const peerBody = [
    'The hand-wired peer (peer-server.ts) answers the same two routes with the same duties, each library wired as its own README shows: helmet, ' +
      "a request id, one pino-http line per request, the RFC 9068 token verified with jose and its scope checked in express-openapi-validator's security handler, " +
      'express-rate-limit per API key with the IETF draft-8 headers (the same raised limits), stock express-openapi-validator on the published spec checking ' +
      "requests and answers, a prom-client histogram with the default metrics, and errors as the API's Error object. Its SQL is the page and `count(*)` " +
      'of the same filter side by side; it answers no cursor and verifies the token on every request (the service keeps verified tokens, http/token-cache.ts). ' +
      rounding +
      databaseNote,
    '',
    ...peerParts.map((part) => part.body),
  ].join('\n');
  return [
    { title: 'What express alone costs: getInvoice and a search', body: floorBody, targets: floors.flatMap((floor) => floor.targets) },
    { title: 'What a team would write by hand: getInvoice and a search', body: peerBody, targets: peerParts.flatMap((part) => part.targets) },
  ];
}
