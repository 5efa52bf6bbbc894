// `pnpm lint` must fail on a spec that breaks our conventions: each case copies the spec into a
// folder of its own, breaks one thing, and the project's Redocly configuration lints it. One Redocly
// process lints every case (each folder is an API of its own in a scratch redocly.yaml), because
// starting Redocly costs seconds and the cases are many; each problem is attributed to its case by the
// folder of the file it was found in.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const redocly = join(root, 'node_modules/.bin/redocly');

type Edit = (text: string) => string;
/** `message`: a part of the message the rule must give (the shape rules name what to do). */
type BrokenSpec = readonly [what: string, file: string, edit: Edit, rule: string, message?: string];

/** The rules of how bodies are carried (scripts/lib/redocly-shapes-plugin.mjs and redocly.yaml). */
const shapeRules = ['shapes/binary-states-media-type', 'shapes/multipart-file-encoding', 'rule/response-media-type-concrete'];

/** The fixture spec of every body shape: it need not follow the product's conventions, only the shape rules. */
const shapesFixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/shapes/openapi.yaml');

/** A multipart/form-data alternative to the issue request's JSON body, with one file property. */
const multipartIssue =
  (file: string, encoding = '') =>
  (s: string) =>
    s.replace(
      '            $ref: ../components/examples/IssueDeliveryRequest.yaml\n',
      `            $ref: ../components/examples/IssueDeliveryRequest.yaml
      multipart/form-data:
        schema:
          type: object
          additionalProperties: false
          properties:
            scan:
              description: A scan of the signed delivery note.
${file.replace(/^/gm, '              ')}
${encoding}`,
    );

const brokenSpecs: readonly BrokenSpec[] = [
  [
    'an operationId not in camelCase',
    'paths/api_v1_users.yaml',
    (s: string) => s.replace('operationId: listUsers', 'operationId: list_users'),
    'rule/operation-id-camel-case',
  ],
  [
    'a request body that accepts unknown properties',
    'components/schemas/DeliveryIssue.yaml',
    (s: string) => s.replace('additionalProperties: false\n', ''),
    'rule/request-bodies-are-closed',
  ],
  [
    'a secured operation without a 429 answer',
    'paths/api_v1_users.yaml',
    (s: string) => s.replace(/ {4}'429':\n {6}\$ref: [^\n]+\n/, ''),
    'rule/secured-operation-errors',
  ],
  [
    'an operation without security',
    'paths/api_v1_users.yaml',
    (s: string) => s.replace(/ {2}security:\n {4}- oauth2: \['users:read'\]\n/, ''),
    'rule/secured-operation-declares-scope',
  ],
  [
    'an error answer written inline',
    'paths/api_v1_users.yaml',
    (s: string) =>
      s
        .replace(
          '$ref: ../components/responses/ListBadRequest.yaml',
          'description: gone\n      headers:\n        X-Request-Id:\n          $ref: ../components/headers/X-Request-Id.yaml\n      content:\n        application/json:\n          schema:\n            $ref: ../components/schemas/Error.yaml',
        )
        .replace(
          '$ref: ../components/responses/ListUsersForbidden.yaml',
          'description: no\n      headers:\n        X-Request-Id:\n          $ref: ../components/headers/X-Request-Id.yaml\n        WWW-Authenticate:\n          $ref: ../components/headers/WWW-Authenticate.yaml\n      content:\n        application/json:\n          schema:\n            $ref: ../components/schemas/Error.yaml',
        ),
    'rule/error-responses-use-error-schema',
  ],
  [
    'a shared error response with another schema',
    'components/responses/InvoiceNotFound.yaml',
    (s: string) => s.replace('Error.yaml', 'Health.yaml'),
    'rule/shared-error-response-schema',
  ],
  [
    'an example that violates its schema',
    'components/examples/DraftDelivery.yaml',
    (s: string) => s.replace('status: draft', 'status: shipped'),
    'no-invalid-media-type-examples',
  ],
  ['a multipleOf on money', 'components/schemas/Money.yaml', (s: string) => s.replace('minimum: 0', 'minimum: 0\nmultipleOf: 0.01'), 'rule/no-multiple-of'],
  ['an operation without x-rate-limit', 'paths/api_v1_users.yaml', (s: string) => s.replace('  x-rate-limit: standard\n', ''), 'rule/operation-rate-limit'],
  [
    'an x-rate-limit naming no known budget',
    'paths/api_v1_users.yaml',
    (s: string) => s.replace('x-rate-limit: standard', 'x-rate-limit: fast'),
    'rule/operation-rate-limit',
  ],
  [
    'a write without x-invalidates',
    'paths/2.0_delivery_issue.yaml',
    (s: string) => s.replace(/ {2}x-invalidates:\n(?: {4}.*\n)+/, ''),
    'rule/write-declares-invalidates',
  ],
  [
    'an empty x-invalidates',
    'paths/api_v1_invoices.yaml',
    (s: string) => s.replace(/ {2}x-invalidates:\n(?: {4}.*\n)+/, '  x-invalidates: []\n'),
    'rule/write-declares-invalidates',
  ],
  [
    'a 201 without links',
    'paths/api_v1_invoices.yaml',
    (s: string) => s.replace(/ {6}links:\n( {8}\w+:\n {10}\$ref: [^\n]+\n)+/, ''),
    'rule/created-resource-links',
  ],
  ['a 201 without Location', 'paths/2.0_delivery.yaml', (s: string) => s.replace(/ {8}Location:\n {10}\$ref: [^\n]+\n/, ''), 'response-contains-header'],
  [
    'a deprecated operation without x-sunset',
    'paths/api_v1_users.yaml',
    (s: string) => s.replace('operationId: listUsers\n', "operationId: listUsers\n  deprecated: true\n  x-deprecated-since: '2026-11-01'\n"),
    'rule/deprecation-dates-operation',
  ],
  [
    'an x-sunset that is not a YYYY-MM-DD day',
    'paths/api_v1_users.yaml',
    (s: string) =>
      s.replace('operationId: listUsers\n', "operationId: listUsers\n  deprecated: true\n  x-deprecated-since: '2026-11-01'\n  x-sunset: 30.06.2027\n"),
    'rule/deprecation-day-format-operation',
  ],
  [
    'sunset dates on a parameter not marked deprecated',
    'components/parameters/offset.yaml',
    (s: string) => `${s.trimEnd()}\nx-deprecated-since: '2026-11-01'\nx-sunset: '2027-06-30'\n`,
    'rule/deprecation-dates-parameter',
  ],
  [
    'a deprecated property without its dates',
    'components/schemas/InvoiceSearchRequest.yaml',
    (s: string) => s.replace('\n  offset:\n', '\n  offset:\n    deprecated: true\n'),
    'rule/deprecation-dates-schema',
  ],
  [
    'a file property in a JSON request body',
    'components/schemas/DeliveryIssue.yaml',
    (s: string) => s.replace('\nproperties:\n', '\nproperties:\n  scan:\n    description: A scan.\n    type: string\n    format: binary\n'),
    'shapes/binary-states-media-type',
    'under application/json: a JSON body cannot hold bytes',
  ],
  [
    'a binary schema reached through $ref from JSON bodies',
    'components/schemas/Money.yaml',
    (s: string) => s.replace('format: decimal2\n', 'format: decimal2\ncontentMediaType: application/octet-stream\n'),
    'shapes/binary-states-media-type',
    'under application/json: a JSON body cannot hold bytes',
  ],
  [
    'a binary schema of a parameter',
    'components/parameters/X-Request-Id.yaml',
    (s: string) => s.replace('schema:\n  type: string\n', 'schema:\n  type: string\n  format: binary\n'),
    'shapes/binary-states-media-type',
    'must state its media type',
  ],
  [
    'a multipart file part that states no media type',
    'paths/2.0_delivery_issue.yaml',
    multipartIssue('type: string\nformat: binary', '        encoding:\n          scan:\n            headers: {}\n'),
    'shapes/binary-states-media-type',
    'The file part `scan` of a multipart/form-data body must state which media types the part may be',
  ],
  [
    'a multipart request body without an encoding entry for its file',
    'paths/2.0_delivery_issue.yaml',
    multipartIssue('type: string\ncontentMediaType: application/pdf'),
    'shapes/multipart-file-encoding',
    'needs an encoding entry for each file property: add encoding.scan',
  ],
  [
    'a media type range in an answer',
    'paths/healthz.yaml',
    (s: string) =>
      s.replace(
        '              $ref: ../components/examples/HealthOk.yaml\n',
        '              $ref: ../components/examples/HealthOk.yaml\n        image/*:\n          schema:\n            type: string\n            format: binary\n',
      ),
    'rule/response-media-type-concrete',
    'not a range (image/*, */*)',
  ],
];

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { source: { ref: string } }[];
}

/** The folder of the unchanged spec, then one folder per broken spec, in the order of `brokenSpecs`. */
const unchanged = 'unchanged';
const fixture = 'fixture';
const caseFolder = (index: number) => `case-${index}`;

let scratch: string;
let problemsByFolder: Map<string, Problem[]>;

/** Redocly's JSON format prints one document per API, back to back. */
function parseReports(stdout: string): Problem[] {
  return stdout
    .split(/(?<=^\})(?=\{)/m)
    .filter((document) => document.trim() !== '')
    .flatMap((document) => (JSON.parse(document) as { problems: Problem[] }).problems);
}

function copySpec(folder: string): string {
  cpSync(join(root, 'openapi'), join(scratch, folder, 'openapi'), { recursive: true });
  return join(scratch, folder, 'openapi');
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'lint-'));
  const apis: Record<string, { root: string }> = { [unchanged]: { root: join(unchanged, 'openapi/openapi.yaml') } };
  copySpec(unchanged);
  apis[fixture] = { root: join(fixture, 'openapi.yaml') };
  mkdirSync(join(scratch, fixture));
  cpSync(shapesFixture, join(scratch, fixture, 'openapi.yaml'));
  brokenSpecs.forEach(([, file, edit], index) => {
    const target = join(copySpec(caseFolder(index)), file);
    const before = readFileSync(target, 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`the edit of case ${index} (${file}) changed nothing`);
    writeFileSync(target, after);
    apis[caseFolder(index)] = { root: join(caseFolder(index), 'openapi/openapi.yaml') };
  });
  const config = parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')) as Record<string, unknown>;
  mkdirSync(scratch, { recursive: true });
  // Plugins are files beside the configuration: named from the scratch folder by their absolute path.
  const plugins = ((config.plugins ?? []) as string[]).map((plugin) => resolve(root, plugin));
  writeFileSync(join(scratch, 'redocly.yaml'), stringify({ ...config, plugins, apis }));
  const result = spawnSync(redocly, ['lint', '--format=json'], {
    cwd: scratch,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
  });
  if (result.status !== 0 && result.status !== 1) throw new Error(`redocly lint exited ${result.status}: ${result.stderr}`);
  problemsByFolder = new Map();
  for (const problem of parseReports(result.stdout)) {
    const folder = problem.location[0]?.source.ref.split('/')[0] ?? '';
    problemsByFolder.set(folder, [...(problemsByFolder.get(folder) ?? []), problem]);
  }
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('lint', () => {
  // `pnpm lint` itself runs before vitest in `pnpm test`; this is the same configuration on a copy.
  it('passes the spec as it is with no errors and no warnings', () => {
    expect(problemsByFolder.get(unchanged) ?? []).toEqual([]);
  });

  it.each(brokenSpecs.map(([what, file, edit, rule, message], index) => [what, file, edit, rule, message, index] as const))(
    'fails on %s',
    (_what, _file, _edit, rule, message, index) => {
      const errors = (problemsByFolder.get(caseFolder(index)) ?? []).filter((problem) => problem.severity === 'error');
      expect(
        errors.map((problem) => problem.ruleId),
        'the errors Redocly found in this case',
      ).toContain(rule);
      if (message !== undefined) {
        expect(
          errors.filter((problem) => problem.ruleId === rule).map((problem) => problem.message),
          `the messages of ${rule}`,
        ).toContainEqual(expect.stringContaining(message));
      }
    },
  );

  // The fixture of every body shape (a PDF download, CSV beside JSON, multipart uploads with their
  // encodings, a text body) is how bodies are meant to be written: the shape rules pass it.
  it('passes the fixture spec of shapes under the shape rules', () => {
    const problems = problemsByFolder.get(fixture) ?? [];
    expect(problems.filter((problem) => shapeRules.includes(problem.ruleId))).toEqual([]);
  });
});
