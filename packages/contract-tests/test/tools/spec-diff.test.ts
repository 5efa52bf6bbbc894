// The rules of `pnpm spec:diff`, one kind of break per test on a small spec, an additive change that
// must pass, and the command end to end on a throwaway git repository holding the real openapi/.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../scripts/lib/prism.mjs';
import { findBreakingChanges, findNewOperations } from '../../../../scripts/lib/spec-diff-core.mjs';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function baseSpec() {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          security: [{ oauth2: ['things:read'] }],
          parameters: [{ in: 'query', name: 'limit', required: false, schema: { type: 'integer', maximum: 100 } }],
          responses: {
            '200': {
              ...json({ type: 'object', properties: { things: { type: 'array', items: ref('Thing') } } }),
              headers: { 'X-Request-Id': { schema: { type: 'string' } } },
            },
          },
        },
        post: {
          operationId: 'createThing',
          security: [{ oauth2: ['things:write'] }],
          requestBody: { required: true, ...json(ref('ThingCreate')) },
          responses: { '201': json({ type: 'object', properties: { thing: ref('Thing') } }), '400': json(ref('Error')) },
        },
      },
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'integer' } }],
          responses: { '200': json(ref('Thing')), '404': json(ref('Error')) },
        },
      },
    },
    components: {
      schemas: {
        Kind: { type: 'string', enum: ['a', 'b', 'c'] },
        Thing: {
          type: 'object',
          required: ['id', 'kind', 'size'],
          properties: { id: { type: 'integer' }, kind: ref('Kind'), size: { type: 'number' }, note: { type: 'string' }, parent: ref('Thing') },
        },
        ThingCreate: {
          type: 'object',
          additionalProperties: false,
          required: ['kind'],
          properties: { kind: ref('Kind'), size: { type: 'integer' }, note: { type: 'string', maxLength: 100 } },
        },
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      },
    },
  };
}

type Spec = ReturnType<typeof baseSpec>;
function changed(edit: (spec: Spec) => void) {
  const head = structuredClone(baseSpec());
  edit(head);
  return findBreakingChanges(baseSpec(), head);
}
const rules = (breaks: { rule: string }[]) => breaks.map((entry) => entry.rule);

const createBody = '$.paths["/things"].post.requestBody.content["application/json"].schema';
const getThingBody = '$.paths["/things/{id}"].get.responses["200"].content["application/json"].schema';

describe('spec:diff rules', () => {
  it('finds nothing between a spec and itself, recursive schemas included', () => {
    expect(findBreakingChanges(baseSpec(), baseSpec())).toEqual([]);
  });

  it('passes an additive change: new operation, optional field and parameter, response field, status, enum value in a request', () => {
    const breaks = changed((spec) => {
      Object.assign(spec.paths, { '/other': { get: { operationId: 'other', responses: { '200': json({ type: 'object' }) } } } });
      Object.assign(spec.components.schemas.ThingCreate.properties, { color: { type: 'string' } });
      spec.paths['/things'].get.parameters.push({ in: 'query', name: 'offset', required: false, schema: { type: 'integer', maximum: 1000 } });
      Object.assign(spec.components.schemas.Thing.properties, { color: { type: 'string' } });
      Object.assign(spec.paths['/things/{id}'].get.responses, { '410': json(ref('Error')) });
      spec.components.schemas.ThingCreate.properties.size = { type: 'number' }; // integer -> number accepts more
      spec.components.schemas.ThingCreate.properties.note.maxLength = 200;
    });
    expect(breaks).toEqual([]);
  });

  it('reports a removed operation', () => {
    const breaks = changed((spec) => delete (spec.paths as Record<string, unknown>)['/things/{id}']);
    expect(breaks).toEqual([{ path: '$.paths["/things/{id}"].get', rule: 'operation-removed', message: expect.stringContaining('getThing') }]);
  });

  it('reports a removed response field at its JSON path, in every answer that carries it', () => {
    const breaks = changed((spec) => delete (spec.components.schemas.Thing.properties as Record<string, unknown>).note);
    expect(breaks.map((entry) => entry.path)).toContain(`${getThingBody}.properties.note`);
    expect(breaks.map((entry) => entry.path)).toContain(
      '$.paths["/things"].get.responses["200"].content["application/json"].schema.properties.things.items.properties.note',
    );
    expect(new Set(rules(breaks))).toEqual(new Set(['field-removed']));
  });

  it('reports a removed request field (the body is closed, so sending it now fails)', () => {
    const breaks = changed((spec) => delete (spec.components.schemas.ThingCreate.properties as Record<string, unknown>).note);
    expect(breaks).toContainEqual({ path: `${createBody}.properties.note`, rule: 'field-removed', message: expect.any(String) });
  });

  it('reports a new required request field and a field that became required', () => {
    const breaks = changed((spec) => {
      Object.assign(spec.components.schemas.ThingCreate.properties, { owner: { type: 'string' } });
      spec.components.schemas.ThingCreate.required.push('owner', 'size');
    });
    expect(breaks).toContainEqual({ path: `${createBody}.properties.owner`, rule: 'new-required-field', message: expect.any(String) });
    expect(breaks).toContainEqual({ path: `${createBody}.properties.size`, rule: 'field-now-required', message: expect.any(String) });
  });

  it('reports a narrowed enum where a request uses it (and not where only responses do)', () => {
    const breaks = changed((spec) => (spec.components.schemas.Kind.enum = ['a', 'b']));
    expect(breaks).toEqual([{ path: `${createBody}.properties.kind.enum`, rule: 'enum-narrowed', message: 'no longer accepts "c"' }]);
  });

  it('reports an enum widened in a response: clients get a value they were not promised', () => {
    const breaks = changed((spec) => spec.components.schemas.Kind.enum.push('d'));
    expect(breaks.map((entry) => entry.path)).toContain(`${getThingBody}.properties.kind.enum`);
    expect(new Set(rules(breaks))).toEqual(new Set(['enum-widened-in-response']));
  });

  it('accepts a value added to a response enum marked x-extensible-enum, and only there', () => {
    const extensible = changed((spec) => {
      spec.components.schemas.Kind.enum.push('d');
      (spec.components.schemas.Kind as Record<string, unknown>)['x-extensible-enum'] = true;
    });
    expect(extensible).toEqual([]);
    const narrowed = changed((spec) => {
      spec.components.schemas.Kind.enum.pop();
      (spec.components.schemas.Kind as Record<string, unknown>)['x-extensible-enum'] = true;
    });
    expect(rules(narrowed)).toContain('enum-narrowed');
  });

  it('reports a changed type in requests and responses', () => {
    const breaks = changed((spec) => (spec.components.schemas.Thing.properties.size = { type: 'string' }));
    expect(breaks).toContainEqual({ path: `${getThingBody}.properties.size.type`, rule: 'type-changed', message: 'type changed from number to string' });
    const request = changed((spec) => (spec.components.schemas.ThingCreate.properties.size = { type: 'string' }));
    expect(request).toEqual([{ path: `${createBody}.properties.size.type`, rule: 'type-changed', message: 'type changed from integer to string' }]);
  });

  it('reports a removed response status and a removed response header', () => {
    const breaks = changed((spec) => {
      delete (spec.paths['/things/{id}'].get.responses as Record<string, unknown>)['404'];
      delete (spec.paths['/things'].get.responses['200'].headers as Record<string, unknown>)['X-Request-Id'];
    });
    expect(breaks).toContainEqual({ path: '$.paths["/things/{id}"].get.responses["404"]', rule: 'response-removed', message: 'response 404 was removed' });
    expect(breaks).toContainEqual({
      path: '$.paths["/things"].get.responses["200"].headers["X-Request-Id"]',
      rule: 'response-header-removed',
      message: expect.any(String),
    });
  });

  it('reports parameters: removed, new required, tightened; and a new scope', () => {
    const removed = changed((spec) => (spec.paths['/things'].get.parameters = []));
    expect(rules(removed)).toEqual(['parameter-removed']);
    const added = changed((spec) =>
      spec.paths['/things'].get.parameters.push({ in: 'query', name: 'page', required: true, schema: { type: 'integer', maximum: 10 } }),
    );
    expect(added).toEqual([{ path: '$.paths["/things"].get.parameters["query:page"]', rule: 'new-required-parameter', message: expect.any(String) }]);
    const tightened = changed((spec) => (spec.paths['/things'].get.parameters[0]!.schema.maximum = 50));
    expect(tightened).toEqual([
      { path: '$.paths["/things"].get.parameters["query:limit"].schema.maximum', rule: 'constraint-tightened', message: 'maximum 100 -> 50' },
    ]);
    const scoped = changed((spec) => spec.paths['/things'].get.security[0]!.oauth2.push('admin'));
    expect(rules(scoped)).toEqual(['scope-added']);
  });

  it('reports a renamed operationId: the generated client function and the handler map key are gone', () => {
    const breaks = changed((spec) => (spec.paths['/things/{id}'].get.operationId = 'fetchThing'));
    expect(breaks).toEqual([
      {
        path: '$.paths["/things/{id}"].get.operationId',
        rule: 'operation-id-changed',
        message: expect.stringMatching(/getThing became fetchThing.*api\.getThing/),
      },
    ]);
  });

  it('reports a removed operation by its operationId, even when another operation takes its path', () => {
    const breaks = changed((spec) => {
      delete (spec.paths['/things'] as Record<string, unknown>).post;
    });
    expect(breaks).toEqual([{ path: '$.paths["/things"].post', rule: 'operation-removed', message: expect.stringContaining('(createThing)') }]);
  });

  it("reports changes that shift the generated client function's arguments: a first query parameter, a new optional body, a removed body", () => {
    const query = changed((spec) =>
      Object.assign(spec.paths['/things/{id}'].get, {
        parameters: [...spec.paths['/things/{id}'].get.parameters, { in: 'query', name: 'expand', required: false, schema: { type: 'string' } }],
      }),
    );
    expect(query).toEqual([
      { path: '$.paths["/things/{id}"].get.parameters', rule: 'client-signature-changed', message: expect.stringContaining('`query` argument') },
    ]);
    const body = changed((spec) => Object.assign(spec.paths['/things/{id}'].get, { requestBody: { required: false, ...json({ type: 'object' }) } }));
    expect(body).toEqual([
      { path: '$.paths["/things/{id}"].get.requestBody', rule: 'client-signature-changed', message: expect.stringContaining('`body` argument') },
    ]);
    const requiredBody = changed((spec) => Object.assign(spec.paths['/things/{id}'].get, { requestBody: { required: true, ...json({ type: 'object' }) } }));
    expect(rules(requiredBody)).toEqual(['request-body-now-required']);
    const removed = changed((spec) => delete (spec.paths['/things'].post as Record<string, unknown>).requestBody);
    expect(removed).toEqual([{ path: '$.paths["/things"].post.requestBody', rule: 'request-body-removed', message: expect.any(String) }]);
  });

  it('lists a new operation as needing a handler, without calling it a break', () => {
    const head = structuredClone(baseSpec());
    Object.assign(head.paths, { '/other': { get: { operationId: 'getOther', responses: { '200': json({ type: 'object' }) } } } });
    head.paths['/things/{id}'].get.operationId = 'fetchThing';
    expect(findNewOperations(baseSpec(), head)).toEqual([
      { operationId: 'fetchThing', method: 'GET', path: '/things/{id}' },
      { operationId: 'getOther', method: 'GET', path: '/other' },
    ]);
  });

  it('reports a request field that became more constrained', () => {
    const breaks = changed((spec) => {
      spec.components.schemas.ThingCreate.properties.note.maxLength = 50;
      Object.assign(spec.components.schemas.ThingCreate.properties.note, { pattern: '^[a-z]+$' });
    });
    expect(breaks.map((entry) => `${entry.rule} ${entry.path}`).sort()).toEqual([
      `constraint-tightened ${createBody}.properties.note.maxLength`,
      `constraint-tightened ${createBody}.properties.note.pattern`,
    ]);
  });
});

describe('pnpm spec:diff on a git repository', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, stdio: 'pipe' });
  const specDiff = (...args: string[]) => spawnSync(process.execPath, [join(repoRoot, 'scripts/spec-diff.mjs'), ...args, '--repo', repo], { encoding: 'utf8' });

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'spec-diff-repo-'));
    cpSync(join(repoRoot, 'openapi'), join(repo, 'openapi'), { recursive: true });
    cpSync(join(repoRoot, 'redocly.yaml'), join(repo, 'redocly.yaml'));
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'spec');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('exits 0 when nothing breaks, and 1 listing each break with its JSON path when a request enum narrows', () => {
    const clean = specDiff('HEAD');
    expect(clean.stdout).toContain('no breaking change since HEAD');
    expect(clean.status).toBe(0);

    const statusFile = join(repo, 'openapi/components/schemas/InvoiceStatus.yaml');
    const original = readFileSync(statusFile, 'utf8');
    writeFileSync(statusFile, original.replace('enum: [draft, sent, paid, overdue, cancelled]', 'enum: [draft, sent, paid, cancelled]'));
    try {
      const broken = specDiff('HEAD', '--json');
      expect(broken.status).toBe(1);
      const breaks = JSON.parse(broken.stdout) as { path: string; rule: string }[];
      expect(
        breaks.some((entry) => entry.rule === 'enum-narrowed' && entry.path.startsWith('$.paths["/api/v1/invoices/{invoice_id}"].patch.requestBody')),
      ).toBe(true);
    } finally {
      writeFileSync(statusFile, original);
    }
  });

  it('fails on a renamed operationId and names the new operation that needs a handler', () => {
    const file = join(repo, 'openapi/paths/api_v1_users_{user_id}.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('operationId: getUser', 'operationId: fetchUser'));
    try {
      const result = specDiff('HEAD');
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('operation-id-changed');
      expect(result.stdout).toContain('$.paths["/api/v1/users/{user_id}"].get.operationId');
      expect(result.stdout).toContain('operationId getUser became fetchUser');
      expect(result.stdout).toContain('new operation fetchUser (GET /api/v1/users/{user_id}) needs a handler: run `pnpm scaffold`');
    } finally {
      writeFileSync(file, original);
    }
  });

  it('fails clearly on a ref that does not exist', () => {
    const result = specDiff('no-such-ref');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('spec:diff:');
  });
});
