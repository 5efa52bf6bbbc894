// The API designer's loop, end to end, in a scratch copy of the repository (its tracked and
// untracked, not ignored, files, installed offline from the local pnpm store):
//   add an operation to the spec -> `pnpm generate` -> the server's typecheck fails naming it ->
//   `pnpm scaffold` -> the server's and the client's typechecks pass -> the mock
//   answers the operation's example -> the generated client calls it against the mock -> the service
//   answers it spec-valid (through Prism's validation proxy, no violation).
// The same cycle carries one operation of each non-JSON shape (issue #32): a PDF download, a 204
// removal, a multipart upload of a file and a text field, and a CSV answer. The scratch spec lints
// clean, tsc names all five missing handlers, the PDF, 204, upload and CSV stubs are replaced by tiny
// real handlers (typechecked again), the mock (Prism behind its front) answers the PDF with PDF bytes,
// and the generated client gets a Blob, no data, the file's name and size, and a string from the service.
// Each step is printed; any step that breaks fails the test with that step's output.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

// Calls each shape through the scratch copy's generated client and prints what arrived, one JSON line.
const shapesCallScript = `import { createApiClient } from '@invoice-api/client';
const [baseUrl, token, which] = process.argv.slice(2);
const api = createApiClient({ baseUrl: baseUrl!, token: token!, retry: false });
async function blobFacts(data: unknown) {
  if (!(data instanceof Blob)) return { notABlob: typeof data };
  return { type: data.type, head: new TextDecoder().decode((await data.arrayBuffer()).slice(0, 5)) };
}
const out: Record<string, unknown> = {};
const pdf = await api.downloadReportPdf(7);
out.pdf = { status: pdf.status, body: pdf.ok ? await blobFacts(pdf.data) : pdf.error };
if (which === 'all') {
  const removed = await api.removeReport(7);
  out.removed = { status: removed.status, body: removed.ok ? (removed.data === undefined ? 'no data' : removed.data) : removed.error };
  const file = new File([new TextEncoder().encode('%PDF-1.7\\n%%EOF\\n')], 'march.pdf', { type: 'application/pdf' });
  const uploaded = await api.uploadReportFile(7, { file, title: 'March' });
  out.uploaded = { status: uploaded.status, body: uploaded.ok ? uploaded.data : uploaded.error };
  const csv = await api.exportReportCsv(7);
  out.csv = { status: csv.status, body: csv.ok ? csv.data : csv.error };
}
console.log(JSON.stringify(out));
`;

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

function expectStep(result: StepResult, status: 'passes' | 'fails') {
  // The step's own output is the failure message, so a broken step says why.
  if ((result.status === 0) !== (status === 'passes'))
    throw new Error(`expected the step to ${status === 'passes' ? 'pass' : 'fail'}; its output:\n${result.output}`);
}

async function callThroughClient(baseUrl: string, token: string) {
  const result = await stepAsync(
    `the generated client calls ${newOperationId} at ${baseUrl}`,
    process.execPath,
    ['--import', 'tsx', 'designer-loop-call.ts', baseUrl, token],
    join(scratch, 'packages/contract-tests'),
  );
  expectStep(result, 'passes');
  const line = result.output.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as { status: number; body: unknown; violations: string | null };
}

async function callShapes(baseUrl: string, token: string, which: 'pdf' | 'all') {
  const result = await stepAsync(
    `the generated client calls ${which === 'pdf' ? 'downloadReportPdf' : 'each new shape'} at ${baseUrl}`,
    process.execPath,
    ['--import', 'tsx', 'designer-loop-shapes.ts', baseUrl, token, which],
    join(scratch, 'packages/contract-tests'),
  );
  expectStep(result, 'passes');
  return JSON.parse(result.output.trim().split('\n').pop() ?? '') as unknown;
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
    // The designer's gate: the spec with the new operations lints clean (Redocly and biome).
    expectStep(step('lint', pnpmExecutable, [...pnpmArguments, 'lint']), 'passes');

    const generated = step('generate', pnpmExecutable, [...pnpmArguments, 'generate']);
    expectStep(generated, 'passes');
    expect(readFileSync(join(scratch, 'packages/client/generated/operations.ts'), 'utf8')).toContain(
      `${newOperationId}: (reportId: ContractPathParameter<Contract, '${newOperationId}', 'report_id'>, query?: ContractQueryParams<Contract, '${newOperationId}'>, opts?: CallOptions)`,
    );

    // What the new operation touches is the server's handler table: its typecheck is the designer's
    // answer (the workspace-wide `pnpm typecheck` checks the same server sources again in every
    // package that imports them, for no new message).
    const broken = step('typecheck of the server (must fail)', pnpmExecutable, [...pnpmArguments, '--filter', './packages/server', 'typecheck']);
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

    const scaffolded = step('scaffold', pnpmExecutable, [...pnpmArguments, 'scaffold']);
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

    // The stubs of the new shapes replaced by real handlers: the server's typecheck passes on them too.
    const operationsFile = join(scratch, 'packages/server/src/operations/reports.ts');
    let operations = readFileSync(operationsFile, 'utf8');
    for (const [operationId, handler] of Object.entries(shapeHandlers)) {
      const stub = new RegExp(`(export const ${operationId}: Handler<'${operationId}', RequestContext> = )async \\(\\) => \\{\\n[^\\n]*\\n\\};`);
      expect(operations).toMatch(stub);
      operations = operations.replace(stub, `$1${handler};`);
    }
    writeFileSync(operationsFile, operations);
    expectStep(
      step('typecheck of the server with the real handlers (must pass)', pnpmExecutable, [...pnpmArguments, '--filter', './packages/server', 'typecheck']),
      'passes',
    );

    writeFileSync(join(scratch, 'packages/contract-tests/designer-loop-call.ts'), callScript);
    writeFileSync(join(scratch, 'packages/contract-tests/designer-loop-shapes.ts'), shapesCallScript);
    const spec = join(scratch, 'packages/contract/generated/openapi.yaml');
    // The scratch copy's own Prism launcher, which puts its front before Prism for a byte answer.
    const scratchPrism = (await import(pathToFileURL(join(scratch, 'scripts/lib/prism.mjs')).href)) as { startPrism: typeof startPrism };
    const mock = await scratchPrism.startPrism({ mode: 'mock', spec });
    running.push(mock);
    const fromMock = await callThroughClient(mock.url, 'any-token');
    expect(fromMock).toEqual({ status: 200, body: reportExample, violations: null });
    expect(await callShapes(mock.url, 'any-token', 'pdf')).toEqual({ pdf: { status: 200, body: { type: 'application/pdf', head: '%PDF-' } } });

    const keyFile = join(scratch, '.dev/designer-loop-key.json');
    const token = await mintDevToken({ keyFile });
    // The scratch copy's sources, through tsx: building the copy would cost more than it saves.
    const service = await startService({ keyFile, root: scratch, entry: 'packages/server/src/main.ts' });
    running.push(service);
    const proxy = await startPrism({ mode: 'proxy', upstream: service.url, spec });
    running.push(proxy);
    const fromService = await callThroughClient(proxy.url, token);
    // The stub's documented 500, with the Error body, and no violation reported by Prism.
    expect(fromService).toEqual({
      status: 500,
      body: { error: 'internal_error', message: `${newOperationId} (GET /api/v1/reports/{report_id}) is not implemented yet.` },
      violations: null,
    });

    // The real handlers of the new shapes, called on the service through the generated client.
    expect(await callShapes(service.url, token, 'all')).toEqual({
      pdf: { status: 200, body: { type: 'application/pdf', head: '%PDF-' } },
      removed: { status: 204, body: 'no data' },
      uploaded: { status: 200, body: { file: { name: 'march.pdf', size: 15 } } },
      csv: { status: 200, body: reportCsv },
    });
  }, 900_000);
});
