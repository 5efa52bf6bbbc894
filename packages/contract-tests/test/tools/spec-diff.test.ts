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

/**
 * A spec of the shapes spec:diff compares on the operation table's facts (media-shapes.mjs): an
 * answer in two media types and one without a body, a request body in JSON or multipart with a file
 * part, query parameters written exploded, not exploded, as a deepObject and as a plain value.
 */
function shapesSpec() {
  const file = { type: 'string', contentMediaType: 'application/pdf' };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/reports': {
        get: {
          operationId: 'listReports',
          parameters: [
            { in: 'query', name: 'tags', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { in: 'query', name: 'status', schema: { type: 'array', items: { type: 'string' } } },
            { in: 'query', name: 'filter', style: 'deepObject', explode: true, schema: { type: 'object', properties: { color: { type: 'string' } } } },
            { in: 'query', name: 'limit', schema: { type: 'integer' } },
          ],
          responses: {
            '200': { content: { 'application/json': { schema: { type: 'object' } }, 'text/csv': { schema: { type: 'string' } } } },
            '400': json({ type: 'object' }),
          },
        },
        post: {
          operationId: 'addReport',
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { type: 'object', properties: { title: { type: 'string' } } } },
              'multipart/form-data': {
                schema: { type: 'object', properties: { file, title: { type: 'string' } } },
                encoding: { file: { contentType: 'application/pdf, image/png' } },
              },
            },
          },
          responses: { '204': { description: 'stored' } },
        },
      },
    },
  };
}

type ShapesSpec = ReturnType<typeof shapesSpec>;
function shapesChanged(edit: (spec: ShapesSpec) => void) {
  const head = structuredClone(shapesSpec());
  edit(head);
  return findBreakingChanges(shapesSpec(), head);
}
const listReports = '$.paths["/reports"].get';
const addReport = '$.paths["/reports"].post';
type Content = Record<string, unknown>;

describe('spec:diff on how bodies and query parameters are carried', () => {
  it('passes additions: a request media type, an answer media type after the first, a part media type, explode on a plain value', () => {
    expect(findBreakingChanges(shapesSpec(), shapesSpec())).toEqual([]);
    const breaks = shapesChanged((spec) => {
      (spec.paths['/reports'].post.requestBody.content as Content)['text/plain'] = { schema: { type: 'string' } };
      (spec.paths['/reports'].get.responses['200'].content as Content)['application/pdf'] = { schema: { type: 'string', format: 'binary' } };
      spec.paths['/reports'].post.requestBody.content['multipart/form-data'].encoding.file.contentType = 'application/pdf, image/png, image/jpeg';
      Object.assign(spec.paths['/reports'].get.parameters[3]!, { explode: false });
    });
    expect(breaks).toEqual([]);
  });

  it('reports a media type removed from an answer, naming the status and the type', () => {
    const breaks = shapesChanged((spec) => delete (spec.paths['/reports'].get.responses['200'].content as Content)['text/csv']);
    expect(breaks).toEqual([
      { path: `${listReports}.responses["200"].content["text/csv"]`, rule: 'media-type-removed', message: 'response 200 no longer answers text/csv' },
    ]);
  });

  it('reports a status that had a body and lost it, once, with the media types it answered', () => {
    const breaks = shapesChanged((spec) => delete (spec.paths['/reports'].get.responses['200'] as { content?: unknown }).content);
    expect(breaks).toEqual([
      {
        path: `${listReports}.responses["200"].content`,
        rule: 'response-body-removed',
        message: 'response 200 no longer has a body (it answered application/json, text/csv)',
      },
    ]);
  });

  it('reports a media type added, or moved, before the one an answer listed first: a client sending no Accept gets it', () => {
    const added = shapesChanged((spec) => {
      const answer = spec.paths['/reports'].get.responses['200'];
      answer.content = { 'application/pdf': { schema: { type: 'string', format: 'binary' } }, ...answer.content } as typeof answer.content;
    });
    expect(added).toEqual([
      {
        path: `${listReports}.responses["200"].content`,
        rule: 'default-media-type-changed',
        message: expect.stringContaining('response 200 now lists application/pdf first (was application/json): a client that sends no Accept header'),
      },
    ]);
    const reordered = shapesChanged((spec) => {
      const answer = spec.paths['/reports'].get.responses['200'];
      answer.content = { 'text/csv': answer.content['text/csv'], 'application/json': answer.content['application/json'] };
    });
    expect(reordered.map((entry) => entry.rule)).toEqual(['default-media-type-changed']);
  });

  it('reports a request media type no longer accepted, and a file part that no longer accepts a media type', () => {
    const removed = shapesChanged((spec) => delete (spec.paths['/reports'].post.requestBody.content as Content)['multipart/form-data']);
    expect(removed).toEqual([
      {
        path: `${addReport}.requestBody.content["multipart/form-data"]`,
        rule: 'media-type-removed',
        message: 'request content type multipart/form-data is no longer accepted',
      },
    ]);
    const narrowed = shapesChanged(
      (spec) => (spec.paths['/reports'].post.requestBody.content['multipart/form-data'].encoding.file.contentType = 'application/pdf'),
    );
    expect(narrowed).toEqual([
      {
        path: `${addReport}.requestBody.content["multipart/form-data"].encoding.file`,
        rule: 'part-media-type-removed',
        message: 'the file part `file` of request content type multipart/form-data no longer accepts image/png (now application/pdf)',
      },
    ]);
  });

  it("reports a query parameter's changed style or explode, with how clients write it and how it is read now", () => {
    const exploded = shapesChanged((spec) => Object.assign(spec.paths['/reports'].get.parameters[0]!, { explode: true }));
    expect(exploded).toEqual([
      {
        path: `${listReports}.parameters["query:tags"].explode`,
        rule: 'parameter-style-changed',
        message:
          'query parameter `tags` is now style form, explode true (was style form, explode false): clients write it as ?tags=a,b, the service now reads ?tags=a&tags=b',
      },
    ]);
    // `status` states neither: OpenAPI's default is form, exploded.
    const piped = shapesChanged((spec) => Object.assign(spec.paths['/reports'].get.parameters[1]!, { style: 'pipeDelimited', explode: false }));
    expect(piped).toEqual([
      {
        path: `${listReports}.parameters["query:status"].style`,
        rule: 'parameter-style-changed',
        message: expect.stringContaining('clients write it as ?status=a&status=b, the service now reads ?status=a|b'),
      },
    ]);
  });

  it('refuses a spec the kit cannot carry, naming the side, as generate does', () => {
    const head = structuredClone(shapesSpec());
    (head.paths['/reports'].get.responses['200'].content as Content)['*/*'] = { schema: {} };
    expect(() => findBreakingChanges(shapesSpec(), head)).toThrow(
      /^the new spec: GET \/reports \(listReports\) 200 answer: the media type "\*\/\*" is not one concrete type/,
    );
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

  it('takes the business documents (PDF, export, attachments) for additions: six new operations, no break', () => {
    const rootFile = join(repo, 'openapi/openapi.yaml');
    const current = readFileSync(rootFile, 'utf8');
    const documentPaths = /^ {2}\/api\/v1\/invoices\/(export|\{invoice_id\}\/(pdf|attachments[^:]*)):\n {4}\$ref: [^\n]+\n/gm;
    const before = current.replace(documentPaths, '');
    expect(current.length - before.length).toBeGreaterThan(0);
    writeFileSync(rootFile, before);
    git('commit', '-q', '-am', 'before the business documents');
    writeFileSync(rootFile, current);
    try {
      const result = specDiff('HEAD');
      expect(result.stdout).toContain('no breaking change since HEAD');
      expect(result.status).toBe(0);
      const added = result.stdout.split('\n').filter((line) => line.includes('new operation'));
      expect(added.map((line) => /new operation (\w+)/.exec(line)?.[1]).sort()).toEqual(
        ['deleteInvoiceAttachment', 'exportInvoices', 'getInvoiceAttachment', 'getInvoicePdf', 'listInvoiceAttachments', 'uploadInvoiceAttachment'].sort(),
      );
    } finally {
      git('commit', '-q', '-am', 'the business documents');
    }
  });

  it('fails clearly on a ref that does not exist', () => {
    const result = specDiff('no-such-ref');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('spec:diff:');
  });
});
