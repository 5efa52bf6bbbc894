// `pnpm spec:diff` and deprecation: removing a deprecated item is allowed from its x-sunset day on and
// a break before it; reviewed breaks listed in openapi/breaking-changes.yaml are accepted until their
// expiry day, an expired entry fails the check, a malformed one fails naming it. "Today" is injected
// (`today` option, `--today` flag), so no test depends on the date it runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyExceptions, parseExceptions } from '../../../../scripts/lib/breaking-changes.mjs';
import { repoRoot } from '../../../../scripts/lib/prism.mjs';
import { compareSpecs, findBreakingChanges } from '../../../../scripts/lib/spec-diff-core.mjs';

const json = <S extends object>(schema: S) => ({ content: { 'application/json': { schema } } });
const sunsetOn = (day: string) => ({ deprecated: true, 'x-deprecated-since': '2026-01-01', 'x-sunset': day });

function baseSpec(sunset = '2027-06-30') {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [{ in: 'query', name: 'page', required: false, schema: { type: 'integer' }, ...sunsetOn(sunset) }],
          responses: { '200': json({ type: 'object', properties: { legacy: { type: 'string', ...sunsetOn(sunset) }, name: { type: 'string' } } }) },
        },
      },
      '/old': { get: { operationId: 'getOld', ...sunsetOn(sunset), responses: { '200': json({ type: 'object' }) } } },
    },
  };
}

type Spec = ReturnType<typeof baseSpec>;
function withoutDeprecated(spec: Spec): Spec {
  const head = structuredClone(spec);
  delete (head.paths as Record<string, unknown>)['/old'];
  head.paths['/things'].get.parameters = [];
  delete (head.paths['/things'].get.responses['200'].content['application/json'].schema.properties as Record<string, unknown>).legacy;
  return head;
}

const removals = ['operation-removed $.paths["/old"].get', 'parameter-removed $.paths["/things"].get.parameters["query:page"]'].concat(
  'field-removed $.paths["/things"].get.responses["200"].content["application/json"].schema.properties.legacy',
);
const names = (breaks: { rule: string; path: string }[]) => breaks.map((entry) => `${entry.rule} ${entry.path}`).sort();

describe('spec:diff and sunsets', () => {
  it('removing a deprecated operation, parameter or property before its sunset is a break that names the sunset', () => {
    const { breaks, retired } = compareSpecs(baseSpec(), withoutDeprecated(baseSpec()), { today: '2027-06-29' });
    expect(names(breaks)).toEqual([...removals].sort());
    for (const entry of breaks) expect(entry.message).toMatch(/deprecated, but not before its sunset 2027-06-30$/);
    expect(retired).toEqual([]);
  });

  it('from the sunset day on, the same removals are allowed and listed as retired', () => {
    for (const today of ['2027-06-30', '2030-01-01']) {
      const { breaks, retired } = compareSpecs(baseSpec(), withoutDeprecated(baseSpec()), { today });
      expect(breaks).toEqual([]);
      expect(names(retired)).toEqual([...removals].sort());
    }
  });

  it('a removal of something not deprecated stays a break whatever the day', () => {
    const head = structuredClone(baseSpec());
    delete (head.paths['/things'].get.responses['200'].content['application/json'].schema.properties as Record<string, unknown>).name;
    expect(names(findBreakingChanges(baseSpec(), head, { today: '2099-01-01' }))).toEqual([
      'field-removed $.paths["/things"].get.responses["200"].content["application/json"].schema.properties.name',
    ]);
  });

  it('refuses a malformed today', () => {
    expect(() => compareSpecs(baseSpec(), baseSpec(), { today: '30.06.2027' })).toThrow(/today must be a YYYY-MM-DD day/);
  });
});

describe('the reviewed exceptions file', () => {
  const found = { rule: 'field-removed', path: '$.x.properties.a', message: 'field `a` was removed' };
  const other = { rule: 'type-changed', path: '$.x.properties.b.type', message: 'type changed' };
  const entry = (expires: string) => ({ change: 'field-removed $.x.properties.a', reason: 'nobody reads it', expires });

  it('accepts a listed break through its expiry day, and keeps the others', () => {
    const verdict = applyExceptions([found, other], [entry('2027-01-31')], '2027-01-31');
    expect(verdict.breaks).toEqual([other]);
    expect(verdict.accepted).toEqual([{ ...found, reason: 'nobody reads it', expires: '2027-01-31' }]);
    expect(verdict.expired).toEqual([]);
  });

  it('an expired entry accepts nothing and is reported as expired', () => {
    const verdict = applyExceptions([found], [entry('2027-01-31')], '2027-02-01');
    expect(verdict.breaks).toEqual([found]);
    expect(verdict.expired).toEqual([entry('2027-01-31')]);
  });

  it('lists an entry that matches no change as unused', () => {
    expect(applyExceptions([], [entry('2027-01-31')], '2027-01-01').unused).toEqual([entry('2027-01-31')]);
  });

  it('reads the file; an empty list and an empty file are no entries', () => {
    expect(parseExceptions('accepted: []\n')).toEqual([]);
    expect(parseExceptions('# nothing\n')).toEqual([]);
    expect(parseExceptions(`accepted:\n  - change: 'field-removed $.x.properties.a'\n    reason: nobody reads it\n    expires: 2027-01-31\n`)).toEqual([
      entry('2027-01-31'),
    ]);
  });

  it('fails on a malformed entry with a message naming it and the fault', () => {
    const one = (body: string) => () => parseExceptions(`accepted:\n  - ${body}\n`);
    expect(one("{ change: 'field-removed $.x', reason: r, expires: 2027-02-30 }")).toThrow(
      /breaking-changes\.yaml: entry 1 \(field-removed \$\.x\): expires must be a YYYY-MM-DD day, got "2027-02-30"/,
    );
    expect(one("{ change: 'field-removed $.x', expires: 2027-01-01 }")).toThrow(/entry 1 .*reason must say why/);
    expect(one("{ change: 'the field went', reason: r, expires: 2027-01-01 }")).toThrow(/entry 1: change must be the change as spec:diff prints it/);
    expect(one("{ change: 'field-removed $.x', reason: r, expires: 2027-01-01, approver: me }")).toThrow(/entry 1 has unknown key\(s\) approver/);
    expect(() => parseExceptions('accepted: yes\n')).toThrow(/`accepted` must be a list/);
    expect(() => parseExceptions('accepted: [\n')).toThrow(/not valid YAML/);
  });
});

describe('pnpm spec:diff with a sunset and the exceptions file, on a git repository', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, stdio: 'pipe' });
  const specDiff = (...args: string[]) => spawnSync(process.execPath, [join(repoRoot, 'scripts/spec-diff.mjs'), ...args, '--repo', repo], { encoding: 'utf8' });
  const usersFile = () => join(repo, 'openapi/paths/api_v1_users.yaml');
  const exceptions = () => join(repo, 'openapi/breaking-changes.yaml');
  const removedUsers = 'operation-removed $.paths["/api/v1/users"].get';

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'spec-diff-sunset-'));
    cpSync(join(repoRoot, 'openapi'), join(repo, 'openapi'), { recursive: true });
    cpSync(join(repoRoot, 'redocly.yaml'), join(repo, 'redocly.yaml'));
    // The base deprecates listUsers, with its sunset on 2027-06-30.
    const users = readFileSync(usersFile(), 'utf8');
    writeFileSync(
      usersFile(),
      users.replace(
        /^(\s+)operationId: listUsers$/m,
        "$1operationId: listUsers\n$1deprecated: true\n$1x-deprecated-since: '2026-11-01'\n$1x-sunset: '2027-06-30'",
      ),
    );
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'spec with a deprecated operation');
    // The working tree removes it: the whole path file and its entry in the root.
    const root = join(repo, 'openapi/openapi.yaml');
    writeFileSync(root, readFileSync(root, 'utf8').replace(/^ {2}\/api\/v1\/users:\n {4}\$ref: .*\n/m, ''));
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('before the sunset the removal fails the check; on the sunset day it passes as retired', () => {
    const early = specDiff('HEAD', '--today', '2027-06-29');
    expect(early.status).toBe(1);
    expect(early.stdout).toContain('operation-removed');
    expect(early.stdout).toContain('deprecated, but not before its sunset 2027-06-30');
    const due = specDiff('HEAD', '--today', '2027-06-30');
    expect(due.stdout).toContain(`retired after its sunset (allowed): ${removedUsers}`);
    expect(due.stdout).toContain('no breaking change since HEAD');
    expect(due.status).toBe(0);
  });

  it('a reviewed entry accepts the early removal until it expires; then the check fails', () => {
    writeFileSync(
      exceptions(),
      `accepted:\n  - change: '${removedUsers}'\n    reason: Both consumers confirmed they no longer call it.\n    expires: 2027-01-31\n`,
    );
    try {
      const accepted = specDiff('HEAD', '--today', '2027-01-31');
      expect(accepted.stdout).toContain(`accepted by openapi/breaking-changes.yaml until 2027-01-31: ${removedUsers}`);
      expect(accepted.stdout).toContain('reason: Both consumers confirmed they no longer call it.');
      expect(accepted.status).toBe(0);
      const expired = specDiff('HEAD', '--today', '2027-02-01');
      expect(expired.stdout).toContain(`the entry for ${removedUsers} expired on 2027-01-31`);
      expect(expired.status).toBe(1);
    } finally {
      writeFileSync(exceptions(), 'accepted: []\n');
    }
  });

  it('a malformed exceptions file stops the check with a message naming the entry', () => {
    writeFileSync(exceptions(), `accepted:\n  - change: '${removedUsers}'\n    expires: 2027-01-31\n`);
    try {
      const result = specDiff('HEAD', '--today', '2027-01-01');
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('spec:diff: openapi/breaking-changes.yaml: entry 1');
      expect(result.stderr).toContain('reason must say why');
    } finally {
      writeFileSync(exceptions(), 'accepted: []\n');
    }
  });
});
