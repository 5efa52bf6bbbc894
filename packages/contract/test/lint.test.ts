// `pnpm lint` must fail on a spec that breaks our conventions: each case copies the spec into a
// scratch folder, breaks one thing and runs the same Redocly configuration over it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const redocly = join(root, 'node_modules/.bin/redocly');
const scratch: string[] = [];

function lintWith(file: string, edit: (text: string) => string): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lint-'));
  scratch.push(dir);
  cpSync(join(root, 'openapi'), join(dir, 'openapi'), { recursive: true });
  cpSync(join(root, 'redocly.yaml'), join(dir, 'redocly.yaml'));
  const target = join(dir, 'openapi', file);
  const before = readFileSync(target, 'utf8');
  const after = edit(before);
  expect(after, 'the edit changed nothing').not.toBe(before);
  writeFileSync(target, after);
  const result = spawnSync(redocly, ['lint', '--format=stylish'], { cwd: dir, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  return { status: result.status, output: result.stdout + result.stderr };
}

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('lint', () => {
  it('passes the spec as it is with no warnings', () => {
    const result = spawnSync(redocly, ['lint', '--format=stylish'], { cwd: root, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
    expect(result.status).toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain('Your API description is valid');
    expect(output).not.toMatch(/Warning was generated|\d+ warnings?/);
  });

  it.each([
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
  ])('fails on %s', (_what, file, edit, rule) => {
    const result = lintWith(file, edit);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(rule);
  });
});
