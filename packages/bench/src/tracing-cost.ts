// What tracing costs the service, in interleaved rounds on fresh processes of the same build, three kinds:
// started without the telemetry preload (the service as it was before tracing existed), with the
// preload and no OTEL_* variables (tracing off: the preload loads nothing more), and with tracing on,
// exporting OTLP/HTTP (protobuf, the SDK's default) to a loopback receiver that discards every export.
// Off must show no measurable difference from the build without it; on is reported as it is.
import { fileURLToPath } from 'node:url';
import { describeDifference, describeProcesses, interleavedRounds, overlaps, type AbSide } from './ab.js';
import { halfOf } from './figures.js';
import { startOtlpSink } from './otlp-sink.js';
import { describeMeasure } from './profiles.js';
import { abSidesTable } from './report.js';
import { searchScenarios } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import type { ReportSection, SectionContext } from './sections.js';
import { startService } from './service.js';
import { markdownTable } from './table.js';

const preload = fileURLToPath(new URL('../../server/dist/telemetry-preload.js', import.meta.url));
// The compiled preload, as `pnpm start` loads it ahead of the compiled service.
const withPreload = ['--import', preload] as const;

/** A search that runs two statements per request (page and count): spans for HTTP, express and SQL. */
const tracedSearch = 'client_id =';

export async function tracingCostSection(context: SectionContext): Promise<ReportSection> {
  const { profile, databaseUrl, token, share, log } = context;
  const started = performance.now();
  const scenario = searchScenarios(profile).find((candidate) => candidate.name === tracedSearch);
  if (scenario === undefined) throw new Error(`No search scenario named '${tracedSearch}'`);
  const measure = halfOf(profile.measure);
  const sink = await startOtlpSink();
  try {
    const sides: AbSide[] = [
      { name: 'without the preload', start: () => startService({ databaseUrl, devKeyFile: context.devKeyFile, share }) },
      {
        name: 'tracing off (preload, no OTEL variables)',
        start: () => startService({ databaseUrl, devKeyFile: context.devKeyFile, nodeArgs: withPreload, share }),
      },
      {
        name: 'tracing on (OTLP to a loopback receiver)',
        start: () =>
          startService({
            databaseUrl,
            devKeyFile: context.devKeyFile,
            nodeArgs: withPreload,
            env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
            share,
          }),
      },
    ];
    log(`${scenario.name}: without the preload vs tracing off vs tracing on, ${profile.abRounds} interleaved rounds`);
    const [without, off, on] = await interleavedRounds({
      sides,
      rounds: profile.abRounds,
      processes: profile.abProcesses,
      measure: (url) => scenarioOnce(url, token, scenario, profile.connections, measure),
      warmUp: (url) => scenarioOnce(url, token, scenario, profile.connections, { requests: profile.abWarmUpRequests }),
      log,
    });
    if (without === undefined || off === undefined || on === undefined) throw new Error('interleavedRounds returned fewer sides than it was given');
    if (sink.exports() === 0) throw new Error('The traced side exported no spans: its figures would be those of tracing off');

    const offIsFree = overlaps(off.cpuMsPerRequest, without.cpuMsPerRequest) && overlaps(off.requestsPerSecond, without.requestsPerSecond);
    const seconds = (performance.now() - started) / 1000;
    const body = [
      `'${scenario.name}' at ${profile.connections} connections, ${profile.abRounds} interleaved rounds per side (the order rotated each round) of ` +
        `${describeMeasure(measure)}, ${describeProcesses(profile.abProcesses)}, warmed first by the same ${profile.abWarmUpRequests.toLocaleString('en-US')} discarded ` +
        `requests; median and range over the rounds. The traced side sampled every request and sent ${sink.exports().toLocaleString('en-US')} exports. ` +
        `This section took ${seconds.toFixed(0)} s.`,
      '',
      abSidesTable([without, off, on]),
      '',
      markdownTable(
        ['comparison', 'CPU per request', 'req/s'],
        [
          [
            'tracing off / without the preload',
            describeDifference(off.cpuMsPerRequest, without.cpuMsPerRequest),
            describeDifference(off.requestsPerSecond, without.requestsPerSecond),
          ],
          [
            'tracing on / tracing off',
            describeDifference(on.cpuMsPerRequest, off.cpuMsPerRequest),
            describeDifference(on.requestsPerSecond, off.requestsPerSecond),
          ],
        ],
      ),
    ].join('\n');
    return {
      title: 'What tracing costs: off, and on with every request exported',
      body,
      targets: [
        {
          target: `Tracing off: no measurable difference from the service without the preload ('${scenario.name}', CPU per request and req/s)`,
          measured: `CPU ${describeDifference(off.cpuMsPerRequest, without.cpuMsPerRequest)}; req/s ${describeDifference(off.requestsPerSecond, without.requestsPerSecond)}`,
          met: offIsFree,
        },
        {
          target: `Tracing on (every request sampled, OTLP to a loopback receiver) vs off ('${scenario.name}')`,
          measured: `CPU ${describeDifference(on.cpuMsPerRequest, off.cpuMsPerRequest)}; req/s ${describeDifference(on.requestsPerSecond, off.requestsPerSecond)}`,
          met: undefined,
        },
      ],
    };
  } finally {
    await sink.close();
  }
}
