// The API designer's loop, end to end, in a scratch copy of the repository (its tracked and
// untracked, not ignored, files, installed offline from the local pnpm store):
//   add an operation to the spec -> `pnpm generate` -> the typecheck fails naming it ->
//   `pnpm scaffold` -> the typecheck of the server and the client passes -> the mock
//   answers the operation's example -> the generated client calls it against the mock -> the service
//   answers it spec-valid (through Prism's validation proxy, no violation).
// The same cycle carries one operation of each non-JSON shape (issue #32): a PDF download, a 204
// removal, a multipart upload of a file and a text field, and a CSV answer. The scratch spec lints
// clean, tsc names all five missing handlers, the PDF, 204, upload and CSV stubs are replaced by tiny
// real handlers (typechecked again), the mock (Prism behind its front) answers the PDF with PDF bytes,
// and the generated client gets a Blob, no data, the file's name and size, and a string from the service.
// Each step is printed; any step that breaks fails the test with that step's output.
//
// What a step costs counts (the suite is CPU-bound), so each step runs what it demonstrates and no more:
// the root scripts (`pnpm generate`, `pnpm scaffold`) run as pnpm runs them, by sh with the installed
// tools on PATH, without starting pnpm for each; the typechecks are tsc's, on the server's and the
// client's tsconfig.json files as one program (as `pnpm typecheck` checks the node packages), run in
// this process so that a check after an edit redoes only what the edit touched; the copy comes with the
// repository's generated code, which the install then finds up to date; one client process makes every
// call once the mock, the service and the proxy are up.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { pnpmCommand } from '../../../../scripts/lib/pnpm-command.mjs';
import { startPrism, type RunningPrism } from '../../../../scripts/lib/prism.mjs';
import { IncrementalTypecheck, type TypecheckResult } from '../../src/incremental-typecheck.js';
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

// One operation of each body shape besides JSON, in the product's conventions (scope, x-rate-limit,
// X-Request-Id, the shared error answers, x-invalidates on the writes): a PDF download, a 204 removal,
// a multipart upload of one file and a text field, and a CSV answer. Their 403s are their own, as the
// service words them from the summary.
const reportIdParameter = `    - name: report_id
      in: path
      required: true
      description: The report's id.
      schema: { type: integer, minimum: 1, maximum: 2147483647 }
    - $ref: ../components/parameters/X-Request-Id.yaml`;
const answerHeaders = `      headers:
        X-Request-Id: { $ref: ../components/headers/X-Request-Id.yaml }
        RateLimit: { $ref: ../components/headers/RateLimit.yaml }
        RateLimit-Policy: { $ref: ../components/headers/RateLimit-Policy.yaml }`;
function errorAnswers(forbidden: string, more: string[] = []): string {
  return [
    "    '400': { $ref: ../components/responses/ReportIdBadRequest.yaml }",
    "    '401': { $ref: ../components/responses/Unauthorized.yaml }",
    `    '403': { $ref: ../components/responses/${forbidden}.yaml }`,
    "    '404': { $ref: ../components/responses/ReportNotFound.yaml }",
    ...more,
    "    '429': { $ref: ../components/responses/RateLimited.yaml }",
    "    '500': { $ref: ../components/responses/InternalError.yaml }",
    "    '503': { $ref: ../components/responses/ServiceUnavailable.yaml }",
  ].join('\n');
}
const reportCsv = 'id,title\r\n7,Paid invoices of March\r\n';
const removeOperation = `delete:
  operationId: removeReport
  tags: [reports]
  summary: Remove a report
  description: |
    Removes one report of the caller's account; the answer has no body.
  x-rate-limit: standard
  x-invalidates:
    - operationId: ${newOperationId}
      parameters:
        report_id: $request.path.report_id
    - operationId: downloadReportPdf
      parameters:
        report_id: $request.path.report_id
    - operationId: exportReportCsv
      parameters:
        report_id: $request.path.report_id
  security:
    - oauth2: ['invoices:write']
  parameters:
${reportIdParameter}
  responses:
    '204':
      description: Removed.
${answerHeaders}
${errorAnswers('RemoveReportForbidden')}
`;
const shapePathFiles = {
  'api_v1_reports_{report_id}_pdf': `get:
  operationId: downloadReportPdf
  tags: [reports]
  summary: Download a report as a PDF
  description: |
    Returns one report of the caller's account as a PDF file.
  x-rate-limit: standard
  security:
    - oauth2: ['invoices:read']
  parameters:
${reportIdParameter}
  responses:
    '200':
      description: The report as a PDF.
${answerHeaders}
      content:
        application/pdf:
          schema:
            type: string
            format: binary
            maxLength: 10485760
${errorAnswers('DownloadReportPdfForbidden')}
`,
  'api_v1_reports_{report_id}_csv': `get:
  operationId: exportReportCsv
  tags: [reports]
  summary: Export a report as CSV
  description: |
    Returns one report of the caller's account as CSV, one header line and one line per row.
  x-rate-limit: standard
  security:
    - oauth2: ['invoices:read']
  parameters:
${reportIdParameter}
  responses:
    '200':
      description: The report as CSV.
${answerHeaders}
      content:
        text/csv:
          schema:
            type: string
            maxLength: 1000000
          example: ${JSON.stringify(reportCsv)}
${errorAnswers('ExportReportCsvForbidden')}
`,
  'api_v1_reports_{report_id}_files': `post:
  operationId: uploadReportFile
  tags: [reports]
  summary: Upload a file to a report
  description: |
    Takes one PDF of at most 1 MiB and an optional title, and answers the stored file's name and size.
  x-rate-limit: standard
  x-invalidates:
    - operationId: ${newOperationId}
      parameters:
        report_id: $request.path.report_id
  security:
    - oauth2: ['invoices:write']
  parameters:
${reportIdParameter}
  requestBody:
    required: true
    content:
      multipart/form-data:
        schema:
          type: object
          additionalProperties: false
          required: [file]
          properties:
            file:
              type: string
              format: binary
              maxLength: 1048576
              description: The file, a PDF of at most 1 MiB.
            title:
              type: string
              maxLength: 200
              description: A title for the file.
        encoding:
          file:
            contentType: application/pdf
  responses:
    '200':
      description: The stored file.
${answerHeaders}
      content:
        application/json:
          schema:
            type: object
            additionalProperties: false
            required: [file]
            properties:
              file:
                type: object
                additionalProperties: false
                required: [name, size]
                properties:
                  name: { type: string, maxLength: 255 }
                  size: { type: integer, minimum: 0, maximum: 1048576 }
          examples:
            StoredFile:
              summary: A stored file
              value: { file: { name: march.pdf, size: 2048 } }
${errorAnswers('UploadReportFileForbidden', ["    '413': { $ref: ../components/responses/PayloadTooLarge.yaml }", "    '415': { $ref: ../components/responses/UnsupportedMediaType.yaml }"])}
`,
} as const;
const shapeForbidden = [
  ['RemoveReportForbidden', 'remove a report', 'invoices:write'],
  ['DownloadReportPdfForbidden', 'download a report as a PDF', 'invoices:read'],
  ['ExportReportCsvForbidden', 'export a report as CSV', 'invoices:read'],
  ['UploadReportFileForbidden', 'upload a file to a report', 'invoices:write'],
] as const;

// The scaffolded stubs replaced by tiny real handlers, as a designer would next.
const shapeHandlers = {
  downloadReportPdf: `async () => {
  return { status: 200, body: new Uint8Array(Buffer.from('%PDF-1.7\\n%%EOF\\n')) };
}`,
  removeReport: `async () => {
  return { status: 204 };
}`,
  uploadReportFile: `async (request) => {
  const { file } = request.body;
  return { status: 200, body: { file: { name: file.name, size: file.size } } };
}`,
  exportReportCsv: `async () => {
  return { status: 200, body: ${JSON.stringify(reportCsv)} };
}`,
} as const;

// Runs in the scratch copy's contract-tests package (which depends on the client), with tsx: calls the
// new operations through the scratch copy's generated client on the mock, the service behind Prism's
// validation proxy and the service, and prints what arrived as one JSON line.
const callsScript = `import { createApiClient } from '@invoice-api/client';
const [mockUrl, proxyUrl, serviceUrl, token] = process.argv.slice(2);
type Api = ReturnType<typeof createApiClient>;
const client = (baseUrl: string, bearer: string): Api => createApiClient({ baseUrl, token: bearer, retry: false });
async function blobFacts(data: unknown) {
  if (!(data instanceof Blob)) return { notABlob: typeof data };
  return { type: data.type, head: new TextDecoder().decode((await data.arrayBuffer()).slice(0, 5)) };
}
async function report(api: Api) {
  const result = await api.${newOperationId}(7, { currency: 'EUR' });
  return { status: result.status, body: result.ok ? result.data : result.error, violations: result.response.headers.get('sl-violations') };
}
async function pdf(api: Api) {
  const result = await api.downloadReportPdf(7);
  return { status: result.status, body: result.ok ? await blobFacts(result.data) : result.error };
}
async function otherShapes(api: Api) {
  const removed = await api.removeReport(7);
  const file = new File([new TextEncoder().encode('%PDF-1.7\\n%%EOF\\n')], 'march.pdf', { type: 'application/pdf' });
  const uploaded = await api.uploadReportFile(7, { file, title: 'March' });
  const csv = await api.exportReportCsv(7);
  return {
    removed: { status: removed.status, body: removed.ok ? (removed.data === undefined ? 'no data' : removed.data) : removed.error },
    uploaded: { status: uploaded.status, body: uploaded.ok ? uploaded.data : uploaded.error },
    csv: { status: csv.status, body: csv.ok ? csv.data : csv.error },
  };
}
const mock = client(mockUrl!, 'any-token');
const service = client(serviceUrl!, token!);
console.log(JSON.stringify({
  mock: { report: await report(mock), pdf: await pdf(mock) },
  proxy: { report: await report(client(proxyUrl!, token!)) },
  service: { pdf: await pdf(service), ...(await otherShapes(service)) },
}));
`;

interface StepResult {
  status: number | null;
  output: string;
}

// Upper bounds, not waits (the one test here has 15 minutes, its install 5): an offline install, the
// typechecks of the server and the client, Prism twice and the service take about a minute on two idle
// cores and several times that when other work shares them; the bounds only end a hung step.
let scratch: string;
// The packages the new operations reach (the workspace's other packages read the same server and client
// sources for no new message).
const typecheckedPackages = ['packages/server', 'packages/client'];
const running: Array<RunningPrism | RunningService> = [];

function step(title: string, command: string, args: string[], cwd = scratch, env: NodeJS.ProcessEnv = {}): StepResult {
  // A bearer token is no use in a log: shown as <token>.
  const shown = args.map((arg) => (arg.startsWith('eyJ') ? '<token>' : arg));
  process.stdout.write(`designer loop: ${title} ($ ${command} ${shown.join(' ')})\n`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout}${result.stderr}`;
  process.stdout.write(`designer loop: ${title}: exit ${result.status} after ${Math.round((Date.now() - started) / 1000)} s\n`);
  return { status: result.status, output };
}

// A step run without blocking this process: the mock's front (scripts/lib/prism-front.mjs) listens in it.
function stepAsync(title: string, command: string, args: string[], cwd: string): Promise<StepResult> {
  const shown = args.map((arg) => (arg.startsWith('eyJ') ? '<token>' : arg));
  process.stdout.write(`designer loop: ${title} ($ ${command} ${shown.join(' ')})\n`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('close', (status) => {
      process.stdout.write(`designer loop: ${title}: exit ${status} after ${Math.round((Date.now() - started) / 1000)} s\n`);
      resolve({ status, output });
    });
  });
}

// `pnpm <name>` in the scratch copy: the root package.json's script, run by sh with the installed tools
// on PATH, as pnpm runs it (what pnpm adds is its own start, in every call).
function runScript(title: string, name: string): StepResult {
  const scripts = (JSON.parse(readFileSync(join(scratch, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const script = scripts[name];
  if (script === undefined) throw new Error(`the root package.json has no ${name} script`);
  return step(`${title} (pnpm ${name})`, 'sh', ['-c', script], scratch, { PATH: `${join(scratch, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}` });
}

// A typecheck, reported as a step like the others.
function typecheckStep(title: string, typecheck: IncrementalTypecheck): StepResult {
  process.stdout.write(`designer loop: ${title} (tsc over ${typecheckedPackages.join(' and ')}, in this process)\n`);
  const started = Date.now();
  const result: TypecheckResult = typecheck.check();
  process.stdout.write(`designer loop: ${title}: ${result.errorCount} errors after ${Math.round((Date.now() - started) / 1000)} s\n`);
  return { status: result.errorCount === 0 ? 0 : 1, output: result.output };
}

function expectStep(result: StepResult, status: 'passes' | 'fails') {
  // The step's own output is the failure message, so a broken step says why.
  if ((result.status === 0) !== (status === 'passes'))
    throw new Error(`expected the step to ${status === 'passes' ? 'pass' : 'fail'}; its output:\n${result.output}`);
}

interface Calls {
  mock: { report: unknown; pdf: unknown };
  proxy: { report: unknown };
  service: unknown;
}

async function callThroughClient(urls: { mock: string; proxy: string; service: string }, token: string): Promise<Calls> {
  const result = await stepAsync(
    `the generated client calls the new operations on the mock (${urls.mock}), the proxy (${urls.proxy}) and the service (${urls.service})`,
    process.execPath,
    ['--import', 'tsx', 'designer-loop-calls.ts', urls.mock, urls.proxy, urls.service, token],
    join(scratch, 'packages/contract-tests'),
  );
  expectStep(result, 'passes');
  return JSON.parse(result.output.trim().split('\n').pop() ?? '') as Calls;
}

describe('the designer loop: add an operation, generate, scaffold, call it', () => {
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'designer-loop-'));
    process.stdout.write(`designer loop: scratch copy in ${scratch}\n`);
    // With the repository's generated code: the install's postinstall `generate` finds it up to date,
    // and the edit of the spec below makes `pnpm generate` write it all again.
    copyRepository(scratch, { generated: true });
    expectStep(step('install offline from the local store', pnpmExecutable, [...pnpmArguments, 'install', '--offline', '--frozen-lockfile']), 'passes');
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled(running.map((child) => child.stop()));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('fails the typecheck naming the new operation, passes it after pnpm scaffold, and serves the operation from the mock and the service', async () => {
    writeFileSync(join(scratch, 'openapi/paths/api_v1_reports_{report_id}.yaml'), `${newPathFile}${removeOperation}`);
    for (const [name, text] of Object.entries(shapePathFiles)) writeFileSync(join(scratch, `openapi/paths/${name}.yaml`), text);
    for (const [from, to] of adaptedFromUser) writeFileSync(join(scratch, 'openapi', to), adaptFromUser(readFileSync(join(scratch, 'openapi', from), 'utf8')));
    const userForbidden = readFileSync(join(scratch, 'openapi/components/responses/GetUserForbidden.yaml'), 'utf8');
    for (const [name, action, scope] of shapeForbidden)
      writeFileSync(join(scratch, `openapi/components/responses/${name}.yaml`), userForbidden.replaceAll('users:read', scope).replaceAll('get a user', action));
    const rootFile = join(scratch, 'openapi/openapi.yaml');
    const root = readFileSync(rootFile, 'utf8');
    const edited = root
      .replace('  - name: health\n', "  - name: reports\n    description: Reports over the caller's invoices.\n  - name: health\n")
      .replace(
        '  /healthz:\n',
        `  /api/v1/reports/{report_id}:\n    $ref: paths/api_v1_reports_{report_id}.yaml\n${['pdf', 'csv', 'files']
          .map((tail) => `  /api/v1/reports/{report_id}/${tail}:\n    $ref: paths/api_v1_reports_{report_id}_${tail}.yaml\n`)
          .join('')}  /healthz:\n`,
      );
    expect(edited.length).toBeGreaterThan(root.length + 100);
    writeFileSync(rootFile, edited);
    // The designer's gate on the spec: `pnpm lint`'s Redocly half (its biome half reads no YAML; it
    // checks what scaffold writes, below).
    expectStep(step('lint the spec (Redocly, as pnpm lint runs it)', join(scratch, 'node_modules/.bin/redocly'), ['lint', '--format=stylish']), 'passes');

    const generated = runScript('generate', 'generate');
    expectStep(generated, 'passes');
    expect(readFileSync(join(scratch, 'packages/client/generated/operations.ts'), 'utf8')).toContain(
      `${newOperationId}: (reportId: ContractPathParameter<Contract, '${newOperationId}', 'report_id'>, query?: ContractQueryParams<Contract, '${newOperationId}'>, opts?: CallOptions)`,
    );
    // The server's tests compile against the fixture spec's generated code, which its typecheck script
    // generates before tsc.
    expectStep(
      step('generate the fixture spec the server tests compile against', process.execPath, [
        'scripts/generate.mjs',
        '--spec',
        'packages/contract/test/fixtures/shapes/openapi.yaml',
        '--out',
        'packages/contract/test/fixtures/shapes/generated',
      ]),
      'passes',
    );

    // What the new operation touches is the server's handler table, and the client's generated function,
    // query options and MSW handler, compiled against the generated types: their typecheck is the
    // designer's answer.
    const typecheck = new IncrementalTypecheck(
      typecheckedPackages.map((folder) => join(scratch, folder, 'tsconfig.json')),
      scratch,
    );
    const broken = typecheckStep('typecheck (must fail)', typecheck);
    expectStep(broken, 'fails');
    // Five handlers missing: tsc names them (the first four and a count of the rest, past four).
    const missing = broken.output.match(
      /src\/operations\/index\.ts\(\d+,\d+\): error TS27(?:39|40): Type .* is missing the following properties from type '[^']+': (.*?)(?:, and (\d+) more)?\.?$/m,
    );
    expect(missing, broken.output).not.toBeNull();
    const named = missing![1]!.split(', ');
    expect(named).toContain(newOperationId);
    for (const name of named) expect([newOperationId, ...Object.keys(shapeHandlers)]).toContain(name);
    expect(named.length + Number(missing![2] ?? 0)).toBe(5);

    const scaffolded = runScript('scaffold', 'scaffold');
    expectStep(scaffolded, 'passes');
    expect(scaffolded.output).toContain(
      `scaffold: wrote a stub for ${newOperationId} (GET /api/v1/reports/{report_id}) in packages/server/src/operations/reports.ts (new file)`,
    );
    for (const [operationId, where] of [
      ['removeReport', 'DELETE /api/v1/reports/{report_id}'],
      ['downloadReportPdf', 'GET /api/v1/reports/{report_id}/pdf'],
      ['exportReportCsv', 'GET /api/v1/reports/{report_id}/csv'],
      ['uploadReportFile', 'POST /api/v1/reports/{report_id}/files'],
    ])
      expect(scaffolded.output).toContain(`scaffold: wrote a stub for ${operationId} (${where}) in packages/server/src/operations/reports.ts;`);
    expect(runScript('scaffold again writes nothing', 'scaffold').output).toContain('nothing written');
    // `pnpm lint`'s biome half on what scaffold wrote: the stubs and their wiring lint clean.
    expectStep(
      step('lint what scaffold wrote (biome, as pnpm lint runs it)', join(scratch, 'node_modules/.bin/biome'), [
        'check',
        'packages/server/src/operations/reports.ts',
        'packages/server/src/operations/index.ts',
      ]),
      'passes',
    );

    // Passing now: the server with the stubs, and the client.
    expectStep(typecheckStep('typecheck (must pass)', typecheck), 'passes');

    // The stubs of the new shapes replaced by real handlers: the server's typecheck passes on them too.
    const operationsFile = join(scratch, 'packages/server/src/operations/reports.ts');
    let operations = readFileSync(operationsFile, 'utf8');
    for (const [operationId, handler] of Object.entries(shapeHandlers)) {
      const stub = new RegExp(`(export const ${operationId}: Handler<'${operationId}', RequestContext> = )async \\(\\) => \\{\\n[^\\n]*\\n\\};`);
      expect(operations).toMatch(stub);
      operations = operations.replace(stub, `$1${handler};`);
    }
    writeFileSync(operationsFile, operations);
    expectStep(typecheckStep('typecheck with the real handlers (must pass)', typecheck), 'passes');

    writeFileSync(join(scratch, 'packages/contract-tests/designer-loop-calls.ts'), callsScript);
    const spec = join(scratch, 'packages/contract/generated/openapi.yaml');
    const keyFile = join(scratch, '.dev/designer-loop-key.json');
    const token = await mintDevToken({ keyFile });
    const started = <T extends RunningPrism | RunningService>(child: T): T => {
      running.push(child);
      return child;
    };
    // The scratch copy's own Prism launcher, which puts its front before Prism for a byte answer.
    const scratchPrism = (await import(pathToFileURL(join(scratch, 'scripts/lib/prism.mjs')).href)) as { startPrism: typeof startPrism };
    const mockStarting = scratchPrism.startPrism({ mode: 'mock', spec }).then(started);
    // The scratch copy's sources, through tsx: building the copy would cost more than it saves. The new
    // operations read no data: the demo data is not seeded.
    const serviceStarting = startService({ keyFile, root: scratch, entry: 'packages/server/src/main.ts', env: { SEED_DEMO_DATA: 'off' } }).then(started);
    // Both settle before a failure is thrown, so that afterAll stops whichever did start.
    await Promise.allSettled([mockStarting, serviceStarting]);
    const [mock, service] = await Promise.all([mockStarting, serviceStarting]);
    const proxy = started(await startPrism({ mode: 'proxy', upstream: service.url, spec }));

    const calls = await callThroughClient({ mock: mock.url, proxy: proxy.url, service: service.url }, token);
    // The mock answers the example, and the PDF with PDF bytes.
    expect(calls.mock).toEqual({
      report: { status: 200, body: reportExample, violations: null },
      pdf: { status: 200, body: { type: 'application/pdf', head: '%PDF-' } },
    });
    // The stub's documented 500, with the Error body, and no violation reported by Prism.
    expect(calls.proxy).toEqual({
      report: {
        status: 500,
        body: { error: 'internal_error', message: `${newOperationId} (GET /api/v1/reports/{report_id}) is not implemented yet.` },
        violations: null,
      },
    });
    // The real handlers of the new shapes, called on the service through the generated client.
    expect(calls.service).toEqual({
      pdf: { status: 200, body: { type: 'application/pdf', head: '%PDF-' } },
      removed: { status: 204, body: 'no data' },
      uploaded: { status: 200, body: { file: { name: 'march.pdf', size: 15 } } },
      csv: { status: 200, body: reportCsv },
    });
  }, 900_000);
});
