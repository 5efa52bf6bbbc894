// The API designer's loop, end to end, in a scratch copy of the repository (its tracked and
// untracked, not ignored, files, installed offline from the local pnpm store):
//   add an operation to the spec -> `pnpm generate` -> the server's typecheck fails naming it ->
//   `pnpm scaffold` -> the server's and the client's typechecks pass -> the mock
//   answers the operation's example -> the generated client calls it against the mock -> the service
//   answers it spec-valid (through Prism's validation proxy, no violation).
// Each step is printed; any step that breaks fails the test with that step's output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { pnpmCommand } from '../../../../scripts/lib/pnpm-command.mjs';
import { startPrism, type RunningPrism } from '../../../../scripts/lib/prism.mjs';
import { copyRepository } from '../../src/scratch-copy.js';
import { startService, type RunningService } from '../../src/service.js';

const [pnpmExecutable, ...pnpmArguments] = pnpmCommand();
const newOperationId = 'getReport';
const reportExample = { report: { id: 7, title: 'Paid invoices of March' } };

// A GET with a path id and an optional query, in a tag the service does not have yet.
const newPathFile = `get:
  operationId: ${newOperationId}
  tags: [reports]
  summary: Get a report
  description: |
    Returns one report of the caller's account.
  x-rate-limit: standard
  security:
    - oauth2: ['invoices:read']
  parameters:
    - name: report_id
      in: path
      required: true
      description: The report's id.
      schema: { type: integer, minimum: 1, maximum: 2147483647 }
    - name: currency
      in: query
      required: false
      description: The currency to report in.
      schema: { type: string, enum: [EUR, CHF] }
  responses:
    '200':
      description: The report.
      headers:
        X-Request-Id: { $ref: ../components/headers/X-Request-Id.yaml }
        RateLimit: { $ref: ../components/headers/RateLimit.yaml }
        RateLimit-Policy: { $ref: ../components/headers/RateLimit-Policy.yaml }
      content:
        application/json:
          schema:
            type: object
            additionalProperties: false
            required: [report]
            properties:
              report:
                type: object
                additionalProperties: false
                required: [id, title]
                properties:
                  id: { type: integer, maximum: 2147483647 }
                  title: { type: string, maxLength: 100 }
          examples:
            Report:
              summary: A report
              value: ${JSON.stringify(reportExample)}
    '400': { $ref: ../components/responses/ReportIdBadRequest.yaml }
    '401': { $ref: ../components/responses/Unauthorized.yaml }
    '403': { $ref: ../components/responses/GetReportForbidden.yaml }
    '404': { $ref: ../components/responses/ReportNotFound.yaml }
    '429': { $ref: ../components/responses/RateLimited.yaml }
    '500': { $ref: ../components/responses/InternalError.yaml }
    '503': { $ref: ../components/responses/ServiceUnavailable.yaml }
`;

// Error answers whose messages name the operation or the resource belong to it (openapi/README.md), so
// a designer adds the new operation's own, as here by adapting the user's: file and example names,
// wording, path parameter and scope.
const adaptedFromUser = [
  ['components/responses/UserIdBadRequest.yaml', 'components/responses/ReportIdBadRequest.yaml'],
  ['components/responses/GetUserForbidden.yaml', 'components/responses/GetReportForbidden.yaml'],
  ['components/responses/UserNotFound.yaml', 'components/responses/ReportNotFound.yaml'],
  ['components/examples/errors/InvalidUserId.yaml', 'components/examples/errors/InvalidReportId.yaml'],
  ['components/examples/errors/UserNotFound.yaml', 'components/examples/errors/ReportNotFound.yaml'],
] as const;

function adaptFromUser(text: string): string {
  return text.replaceAll('users:read', 'invoices:read').replaceAll('get a user', 'get a report').replaceAll('User', 'Report').replaceAll('user', 'report');
}

// Runs in the scratch copy's contract-tests package (which depends on the client), with tsx.
const callScript = `import { createApiClient } from '@invoice-api/client';
const [baseUrl, token] = process.argv.slice(2);
const api = createApiClient({ baseUrl: baseUrl!, token: token!, retry: false });
const result = await api.${newOperationId}(7, { currency: 'EUR' });
console.log(JSON.stringify({ status: result.status, body: result.ok ? result.data : result.error, violations: result.response.headers.get('sl-violations') }));
`;

interface StepResult {
  status: number | null;
  output: string;
}

// Upper bounds, not waits (the one test here has 15 minutes, its install 5): an offline install, the
// server's typecheck twice, Prism twice and the service take about a minute on two idle
// cores and several times that when other work shares them; the bounds only end a hung step.
let scratch: string;
const running: Array<RunningPrism | RunningService> = [];

function step(title: string, command: string, args: string[], cwd = scratch): StepResult {
  // A bearer token is no use in a log: shown as <token>.
  const shown = args.map((arg) => (arg.startsWith('eyJ') ? '<token>' : arg));
  process.stdout.write(`designer loop: ${title} ($ ${command} ${shown.join(' ')})\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0' }, maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout}${result.stderr}`;
  process.stdout.write(`designer loop: ${title}: exit ${result.status} after ${Math.round((Date.now() - started) / 1000)} s\n`);
  return { status: result.status, output };
}

function expectStep(result: StepResult, status: 'passes' | 'fails') {
  // The step's own output is the failure message, so a broken step says why.
  if ((result.status === 0) !== (status === 'passes'))
    throw new Error(`expected the step to ${status === 'passes' ? 'pass' : 'fail'}; its output:\n${result.output}`);
}

function callThroughClient(baseUrl: string, token: string) {
  const result = step(
    `the generated client calls ${newOperationId} at ${baseUrl}`,
    process.execPath,
    ['--import', 'tsx', 'designer-loop-call.ts', baseUrl, token],
    join(scratch, 'packages/contract-tests'),
  );
  expectStep(result, 'passes');
  const line = result.output.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as { status: number; body: unknown; violations: string | null };
}

describe('the designer loop: add an operation, generate, scaffold, call it', () => {
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'designer-loop-'));
    process.stdout.write(`designer loop: scratch copy in ${scratch}\n`);
    copyRepository(scratch);
    expectStep(step('install offline from the local store', pnpmExecutable, [...pnpmArguments, 'install', '--offline', '--frozen-lockfile']), 'passes');
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled(running.map((child) => child.stop()));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('fails the typecheck naming the new operation, passes it after pnpm scaffold, and serves the operation from the mock and the service', async () => {
    writeFileSync(join(scratch, 'openapi/paths/api_v1_reports_{report_id}.yaml'), newPathFile);
    for (const [from, to] of adaptedFromUser) writeFileSync(join(scratch, 'openapi', to), adaptFromUser(readFileSync(join(scratch, 'openapi', from), 'utf8')));
    const rootFile = join(scratch, 'openapi/openapi.yaml');
    const root = readFileSync(rootFile, 'utf8');
    const edited = root
      .replace('  - name: health\n', "  - name: reports\n    description: Reports over the caller's invoices.\n  - name: health\n")
      .replace('  /healthz:\n', '  /api/v1/reports/{report_id}:\n    $ref: paths/api_v1_reports_{report_id}.yaml\n  /healthz:\n');
    expect(edited.length).toBeGreaterThan(root.length + 100);
    writeFileSync(rootFile, edited);

    const generated = step('generate', pnpmExecutable, [...pnpmArguments, 'generate']);
    expectStep(generated, 'passes');
    expect(readFileSync(join(scratch, 'packages/client/generated/operations.ts'), 'utf8')).toContain(
      `${newOperationId}: (reportId: PathParameter<'${newOperationId}', 'report_id'>, query?: QueryParams<'${newOperationId}'>, opts?: CallOptions)`,
    );

    // What the new operation touches is the server's handler table: its typecheck is the designer's
    // answer (the workspace-wide `pnpm typecheck` checks the same server sources again in every
    // package that imports them, for no new message).
    const broken = step('typecheck of the server (must fail)', pnpmExecutable, [...pnpmArguments, '--filter', './packages/server', 'typecheck']);
    expectStep(broken, 'fails');
    expect(broken.output).toMatch(new RegExp(`src/operations/index\\.ts\\(\\d+,\\d+\\): error TS2741: Property '${newOperationId}' is missing`));

    const scaffolded = step('scaffold', pnpmExecutable, [...pnpmArguments, 'scaffold']);
    expectStep(scaffolded, 'passes');
    expect(scaffolded.output).toContain(
      `scaffold: wrote a stub for ${newOperationId} (GET /api/v1/reports/{report_id}) in packages/server/src/operations/reports.ts (new file)`,
    );
    expect(step('scaffold again writes nothing', pnpmExecutable, [...pnpmArguments, 'scaffold']).output).toContain('nothing written');

    // Passing now: the server with the stub, and the client, whose generated function, query options
    // and MSW handler for the new operation are compiled against the generated types here.
    expectStep(
      step('typecheck of the server and the client (must pass)', pnpmExecutable, [
        ...pnpmArguments,
        '--filter',
        './packages/server',
        '--filter',
        './packages/client',
        '--parallel',
        'typecheck',
      ]),
      'passes',
    );

    writeFileSync(join(scratch, 'packages/contract-tests/designer-loop-call.ts'), callScript);
    const spec = join(scratch, 'packages/contract/generated/openapi.yaml');
    const mock = await startPrism({ mode: 'mock', spec });
    running.push(mock);
    const fromMock = callThroughClient(mock.url, 'any-token');
    expect(fromMock).toEqual({ status: 200, body: reportExample, violations: null });

    const keyFile = join(scratch, '.dev/designer-loop-key.json');
    const token = await mintDevToken({ keyFile });
    // The scratch copy's sources, through tsx: building the copy would cost more than it saves.
    const service = await startService({ keyFile, root: scratch, entry: 'packages/server/src/main.ts' });
    running.push(service);
    const proxy = await startPrism({ mode: 'proxy', upstream: service.url, spec });
    running.push(proxy);
    const fromService = callThroughClient(proxy.url, token);
    // The stub's documented 500, with the Error body, and no violation reported by Prism.
    expect(fromService).toEqual({
      status: 500,
      body: { error: 'internal_error', message: `${newOperationId} (GET /api/v1/reports/{report_id}) is not implemented yet.` },
      violations: null,
    });
  }, 900_000);
});
