// The designer guide's blocks on deprecation and reviewed breaks (openapi/README.md, "Deprecation,
// sunset and reviewed breaks"), checked against the spec they claim to be part of:
// - the YAML that deprecates listUsers, merged into listUsers of a scratch copy of openapi/ and linted
//   there with the project's Redocly rules (0 errors, 0 warnings), then read as `pnpm generate` reads it;
// - the headers the guide shows: what the service sends for that deprecation;
// - the breaking-changes.yaml sample: a valid file whose entries are exactly the breaks `pnpm spec:diff`
//   reports when the guide's example change (role removed from User) is made to the bundled spec.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { deprecationHeaderValues } from '../../src/http/deprecation.js';
import { changeName, parseExceptions } from '../../../../scripts/lib/breaking-changes.mjs';
import { deprecationNotice, docsLink } from '../../../../scripts/lib/deprecation.mjs';
import { fencedBlocks, readGuide, repoRoot } from '../../../../scripts/lib/readme-blocks.mjs';
import { findBreakingChanges } from '../../../../scripts/lib/spec-diff-core.mjs';

const guide = 'openapi/README.md';
const heading = '## Deprecation, sunset and reviewed breaks';
const blocks = fencedBlocks(readGuide(guide)).filter((block) => block.heading === heading);
const deprecationYaml = blocks.find((block) => block.language === 'yaml' && block.firstLine === 'get:')?.text ?? '';
const headersShown = blocks.find((block) => block.firstLine.startsWith('Deprecation: @'))?.text ?? '';
const acceptedYaml = blocks.find((block) => block.language === 'yaml' && block.firstLine === 'accepted:')?.text ?? '';

type Operation = Record<string, unknown> & { operationId: string; description: string };

/** listUsers as the spec writes it, with the guide's fragment laid over it. */
function deprecatedListUsers(): { pathItem: { get: Operation }; operation: Operation } {
  const fragment = parse(deprecationYaml) as { get: Partial<Operation> };
  const pathItem = parse(readFileSync(join(repoRoot, 'openapi/paths/api_v1_users.yaml'), 'utf8')) as { get: Operation };
  expect(fragment.get.operationId).toBe(pathItem.get.operationId);
  pathItem.get = { ...pathItem.get, ...fragment.get };
  return { pathItem, operation: pathItem.get };
}

/** Runs Redocly's lint with the project's rules over a scratch copy of openapi/; its JSON report. */
function lintCopy(scratch: string): Promise<{ totals: { errors: number; warnings: number }; problems: unknown[] }> {
  const config = parse(readFileSync(join(repoRoot, 'redocly.yaml'), 'utf8')) as Record<string, unknown>;
  const plugins = ((config.plugins ?? []) as string[]).map((plugin) => resolve(repoRoot, plugin));
  writeFileSync(join(scratch, 'redocly.yaml'), stringify({ ...config, plugins, apis: { main: { root: 'openapi/openapi.yaml' } } }));
  return new Promise((done, fail) => {
    const child = spawn(join(repoRoot, 'node_modules/.bin/redocly'), ['lint', '--format=json'], {
      cwd: scratch,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', fail);
    child.once('close', () => {
      const json = stdout.slice(stdout.indexOf('{'));
      try {
        done(JSON.parse(json) as { totals: { errors: number; warnings: number }; problems: unknown[] });
      } catch {
        fail(new Error(`redocly lint printed no report:\n${stdout}\n${stderr}`));
      }
    });
  });
}

describe("the designer guide's deprecation and reviewed breaks", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'readme-deprecation-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('the deprecation YAML, laid over listUsers, lints clean with the project rules', async () => {
    cpSync(join(repoRoot, 'openapi'), join(scratch, 'openapi'), { recursive: true });
    writeFileSync(join(scratch, 'openapi/paths/api_v1_users.yaml'), stringify(deprecatedListUsers().pathItem));
    const report = await lintCopy(scratch);
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('is read by `pnpm generate` as the guide says: the two days, and a description without the comment', () => {
    const { operation } = deprecatedListUsers();
    expect(operation.description).not.toContain('#');
    expect(operation.description.trim().endsWith('Use searchUsers instead; it takes the same filters.')).toBe(true);
    const notice = deprecationNotice(operation, 'listUsers');
    expect(notice).toMatchObject({ since: '2026-11-01', sunset: '2027-06-30' });
  });

  it("shows the headers the service sends for it, whatever the answer's status", () => {
    const notice = deprecationNotice(deprecatedListUsers().operation, 'listUsers');
    expect(notice).not.toBeNull();
    const headers = deprecationHeaderValues(docsLink('listUsers'), [notice!]);
    expect(headersShown.trim().split('\n')).toEqual(Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`));
  });

  it('the breaking-changes.yaml sample is a valid file naming exactly the breaks of its example change', () => {
    const entries = parseExceptions(acceptedYaml);
    expect(entries.length).toBeGreaterThan(0);
    const base = JSON.parse(readFileSync(join(repoRoot, 'packages/contract/generated/openapi.json'), 'utf8')) as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const head = structuredClone(base);
    const user = head.components.schemas.User!;
    delete user.properties.role;
    user.required = user.required.filter((name) => name !== 'role');
    expect(entries.map((entry) => entry.change).sort()).toEqual(findBreakingChanges(base, head).map(changeName).sort());
  });
});
