// The generated MSW handlers in Node (`setupServer`), called with fetch and with the generated client:
// every named example of the spec is answered when asked for; seeded data is valid against the strict
// spec and the same for the same seed; overrides answer any documented status with the spec's
// required headers; `server.use` with one operation's handler replaces it for one test. That the
// handlers refuse what the service refuses is packages/contract-tests/test/msw-handlers.service.test.ts.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerIssue, loadSpec, operationTable, resolveRef, type OperationId, type SpecNode } from '@invoice-api/contract';
import { responseValidators } from '../../generated/response-validators.js';
import { createApiClient } from '../../src/index.js';
import { createHandlers, operationHandlers } from '../../src/msw/index.js';

const baseUrl = 'http://api.msw.invalid';
const server = setupServer(...createHandlers({ baseUrl }));
const spec = loadSpec();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const operationIds = Object.keys(operationTable) as OperationId[];

function operationNode(operationId: OperationId): SpecNode {
  const facts = operationTable[operationId];
  return (spec.paths as Record<string, Record<string, SpecNode>>)[facts.path]?.[facts.method.toLowerCase()] ?? {};
}

/** The first bytes of each file type an upload may declare: what the handlers' byte check asks of it. */
const fileStarts: Record<string, string> = { 'application/pdf': '%PDF-1.7\n', 'image/png': '\x89PNG\r\n\x1a\n', 'image/jpeg': '\xff\xd8\xff\xe0' };

/** A multipart body the operation takes: each file part a small file of its first listed type. */
function validForm(operationId: OperationId): FormData | undefined {
  const media = operationTable[operationId].requestMedia?.media ?? [];
  const multipart = media.find((facts) => facts.kind === 'multipart');
  if (multipart === undefined || !('parts' in multipart)) return undefined;
  const form = new FormData();
  for (const part of multipart.parts) {
    if (part.kind !== 'file') continue;
    const type = part.contentTypes[0] ?? 'application/octet-stream';
    form.append(part.name, new File([Buffer.from(`${fileStarts[type] ?? ''}sample`, 'latin1')], `sample-${part.name}`, { type }));
  }
  return form;
}

/**
 * A request to the operation that the service would take: path ids 1, the spec's first request
 * example, or for an upload a small file of the right type in each file part.
 */
function validRequest(operationId: OperationId, headers: Record<string, string> = {}, base = baseUrl): Request {
  const facts = operationTable[operationId];
  const path = facts.path.replace(/\{[^}]+\}/g, '1');
  const form = validForm(operationId);
  if (form !== undefined)
    return new Request(`${base}${path}`, { method: facts.method, headers: { Authorization: 'Bearer test-token', ...headers }, body: form });
  const content = resolveRef(spec, operationNode(operationId).requestBody)?.content as Record<string, SpecNode> | undefined;
  const examples = Object.values((content?.['application/json']?.examples ?? {}) as Record<string, unknown>);
  const body = examples[0] === undefined ? undefined : JSON.stringify(resolveRef(spec, examples[0])?.value);
  return new Request(`${base}${path}`, {
    method: facts.method,
    headers: { Authorization: 'Bearer test-token', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
}

/** Every named example of every documented answer: [operationId, status, name, value]. */
const namedExamples = operationIds.flatMap((operationId) =>
  Object.entries((operationNode(operationId).responses ?? {}) as Record<string, unknown>).flatMap(([status, response]) => {
    const content = resolveRef(spec, response)?.content as Record<string, SpecNode> | undefined;
    return Object.entries((content?.['application/json']?.examples ?? {}) as Record<string, unknown>).map(
      ([name, example]) => [operationId, Number(status), name, resolveRef(spec, example)?.value] as const,
    );
  }),
);

/** Every documented answer with a JSON body: [operationId, status]. */
const answersWithBodies = namedExamples.filter(
  ([operationId, status], index) => namedExamples.findIndex(([id, code]) => id === operationId && code === status) === index,
);

async function json(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}

describe('named examples', () => {
  it('walks every named example of the spec', () => {
    expect(namedExamples.length).toBeGreaterThan(100);
  });

  it.each(namedExamples)('%s %i %s: answered with `Prefer: code=<status>, example=<name>`', async (operationId, status, name, value) => {
    const response = await fetch(validRequest(operationId, { Prefer: `code=${status}, example=${name}` }));
    expect(response.status).toBe(status);
    expect(await json(response)).toEqual(value);
  });

  it('without a Prefer header, the success answer is its first named example, with the headers the spec requires', async () => {
    const response = await fetch(validRequest('getInvoice'));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual(namedExamples.find(([id, status]) => id === 'getInvoice' && status === 200)?.[3]);
    expect(response.headers.get('etag')).toMatch(/^"[0-9]+-[0-9]+"$/);
    expect(response.headers.get('x-request-id')).not.toBeNull();
  });

  it('an example name alone finds its status', async () => {
    const response = await fetch(validRequest('getInvoice', { Prefer: 'example=InvoiceNotFound' }));
    expect(response.status).toBe(404);
    expect(await json(response)).toMatchObject({ error: 'not_found' });
  });
});

describe('seeded data', () => {
  const seeds = [1, 2, 3, 42, 2026];

  it.each(answersWithBodies.map(([operationId, status]) => [operationId, status] as const))(
    '%s %i: valid against the strict spec for every seed',
    async (operationId, status) => {
      for (const seed of seeds) {
        server.use(operationHandlers[operationId]({ baseUrl, seed }));
        const response = await fetch(validRequest(operationId, { Prefer: `code=${status}, dynamic=true` }));
        expect(response.status).toBe(status);
        const body = await json(response);
        expect(answerIssue(responseValidators, operationId, status, body), `seed ${seed}: ${JSON.stringify(body)}`).toBeUndefined();
      }
    },
  );

  it('the same seed gives the same answer, another seed another one', async () => {
    const answerWith = async (seed: number) => {
      server.use(operationHandlers.searchInvoices({ baseUrl, seed }));
      return json(await fetch(validRequest('searchInvoices')));
    };
    const first = await answerWith(7);
    expect(await answerWith(7)).toEqual(first);
    expect(await answerWith(8)).not.toEqual(first);
  });
});

describe('overrides', () => {
  it('a documented status with the spec’s required headers: 429 and 503 carry Retry-After', async () => {
    server.use(
      operationHandlers.searchInvoices({ baseUrl, override: { status: 429 } }),
      operationHandlers.getInvoice({ baseUrl, override: { status: 503, headers: { 'Retry-After': '2' } } }),
    );
    const limited = await fetch(validRequest('searchInvoices'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
    expect(await json(limited)).toMatchObject({ error: 'rate_limited' });
    const unavailable = await fetch(validRequest('getInvoice'));
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('2');
  });

  it('a body of the test’s own, and a resolver that decides per request', async () => {
    const handlers = createHandlers({
      baseUrl: 'http://other.msw.invalid',
      overrides: {
        listUsers: { status: 200, body: { users: [] } },
        getInvoice: (request) => (request.url.endsWith('/1') ? { status: 404 } : new Response(null, { status: 500 })),
      },
    });
    server.use(...handlers);
    expect(await json(await fetch(validRequest('listUsers', {}, 'http://other.msw.invalid')))).toEqual({ users: [] });
    expect((await fetch(validRequest('getInvoice', {}, 'http://other.msw.invalid'))).status).toBe(404);
  });

  it('checks come before an override: no token is still the service’s 401', async () => {
    server.use(operationHandlers.getInvoice({ baseUrl, override: { status: 200 } }));
    const response = await fetch(`${baseUrl}/api/v1/invoices/1`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="invoice-api"');
  });

  it('server.use lasts for one test: the next one gets the example again', async () => {
    expect((await fetch(validRequest('searchInvoices'))).status).toBe(200);
  });
});

describe('with the generated client', () => {
  it('searches, reads and sees a refused search as the typed 400', async () => {
    // Made after `server.listen()`: openapi-fetch keeps the `fetch` it finds when the client is made.
    const api = createApiClient({ baseUrl, token: 'test-token', retry: false, validateResponses: true });
    const page = await api.searchInvoices({ criteria: [{ field: 'status', operator: '=', value: 'paid' }] });
    expect(page.ok && page.data.data.length).toBeGreaterThan(0);
    const read = await api.getInvoice(1);
    expect(read.ok).toBe(true);
    // @ts-expect-error the service refuses `like` on amount; so do the handlers
    const refused = await api.searchInvoices({ criteria: [{ field: 'amount', operator: 'like', value: '12' }] });
    expect(refused).toMatchObject({ ok: false, status: 400, error: { error: 'invalid_request', details: { field: 'amount' } } });
  });
});

describe("the client's guide (README.md)", () => {
  const clientDir = fileURLToPath(new URL('../../', import.meta.url));
  const example = readFileSync(new URL('../../examples/msw-in-a-test.ts', import.meta.url), 'utf8').trim();

  it('shows examples/msw-in-a-test.ts verbatim, and it runs as the comments say', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect([...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]?.trim())).toContain(example);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/msw-in-a-test.ts'], { cwd: clientDir });
    expect(stdout.trim().split('\n')).toEqual(['200', '503 23']);
  }, 60_000);
});
