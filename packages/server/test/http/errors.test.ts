// Every error status and code of the product decisions, through real HTTP, with the HTTP layer's own
// small handler map (the operations' behaviour is tested with the real handlers in e2e.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { useTestDatabase } from '../support/databases.js';
import { stubHandlers } from './support/handlers.js';
import { errorBody } from './support/responses.js';
import { startTestService, token, type TestService } from './support/service.js';

const errorShape = { error: expect.any(String), message: expect.any(String) };
const mebibyte = 1024 * 1024;

describe('error answers', () => {
  const database = useTestDatabase('postgres', { name: 'http_errors' });
  let service: TestService;
  let fullToken: string;

  beforeAll(async () => {
    service = await startTestService({
      database: database(),
      handlers: stubHandlers({
        getInvoice: async (request) => {
          throw ApiError.notFound(`Invoice ${request.params.invoice_id} was not found.`);
        },
        getUser: async () => {
          throw new Error('select * from users where secret = 42 failed');
        },
        getCompanyClient: async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        },
        getDelivery: async () => ({ status: 200, body: { delivery: { id: 'not a delivery' } } }) as never,
        updateInvoice: async () => {
          throw new ApiError(401, 'unauthorized', 'The access token is invalid or expired.');
        },
        createDelivery: async () => {
          throw new ApiError(503, 'service_unavailable', 'The service is temporarily unavailable. Try again shortly.');
        },
        issueDelivery: async (request) => {
          throw ApiError.notFound(`Delivery ${request.body.delivery_id} was not found.`);
        },
      }),
    });
    fullToken = await token();
  });
  afterAll(() => service?.close());

  const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const bearer = init.token === undefined ? fullToken : init.token;
    if (bearer !== null) headers.set('authorization', `Bearer ${bearer}`);
    return fetch(`${service.url}${path}`, { ...init, headers });
  };
  const postJson = (path: string, body: unknown, init: RequestInit & { token?: string | null } = {}) =>
    call(path, {
      ...init,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...init.headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  describe('400 invalid_request', () => {
    it('names the first invalid search property in body order', async () => {
      const response = await postJson('/api/v1/invoices/search', { order_direction: 'sideways', limit: 5000 });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        message: expect.stringContaining('order_direction'),
        details: { field: 'order_direction', issue: expect.any(String) },
      });
    });

    it('names a too large search limit', async () => {
      const response = await postJson('/api/v1/invoices/search', { limit: 5000 });
      expect(response.status).toBe(400);
      // The wording of the issue belongs to the search rules; the HTTP layer guarantees the shape.
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        message: expect.stringMatching(/^Invalid search request: 'limit' .*1000/),
        details: { field: 'limit', issue: expect.stringContaining('1000') },
      });
    });

    it('names a criterion on an unknown field by the field name as sent', async () => {
      const response = await postJson('/api/v1/invoices/search', {
        criteria: [
          { field: 'amount', operator: '>', value: 1 },
          { field: 'client_name', operator: '=', value: 'x' },
        ],
      });
      expect(response.status).toBe(400);
      const body = await errorBody(response);
      expect(body.details?.field).toBe('client_name');
      expect(body.details?.issue).toMatch(/searchable/);
    });

    it('rejects an unknown search property', async () => {
      const response = await postJson('/api/v1/invoices/search', { page: 2 });
      expect(response.status).toBe(400);
      expect((await errorBody(response)).details).toEqual({ field: 'page', issue: 'is not a known property' });
    });

    it('names a path id that is not a positive integer', async () => {
      for (const id of ['abc', '0', '-3', '1.5']) {
        const response = await call(`/api/v1/invoices/${id}`);
        expect(response.status, id).toBe(400);
        expect(await response.json()).toEqual({
          error: 'invalid_request',
          message: "The path parameter 'invoice_id' must be a positive integer.",
          details: { field: 'invoice_id', issue: expect.any(String) },
        });
      }
    });

    it('takes a path id only as plain digits: no exponent, sign, leading zero, space or hex, at most 2147483647', async () => {
      const cases: Array<[string, string]> = [
        ['/api/v1/invoices/1e3', 'invoice_id'],
        ['/api/v1/invoices/%2B5', 'invoice_id'],
        ['/api/v1/invoices/+5', 'invoice_id'],
        ['/api/v1/invoices/007', 'invoice_id'],
        ['/api/v1/invoices/%205', 'invoice_id'],
        ['/api/v1/invoices/5%20', 'invoice_id'],
        ['/api/v1/invoices/0x10', 'invoice_id'],
        ['/api/v1/invoices/2147483648', 'invoice_id'],
        ['/api/v1/invoices/99999999999999999999', 'invoice_id'],
        ['/api/v1/users/1e1', 'user_id'],
        ['/api/v1/company_clients/01', 'client_id'],
        ['/2.0/delivery/1.0', 'delivery_id'],
      ];
      for (const [path, field] of cases) {
        const response = await call(path);
        expect(response.status, path).toBe(400);
        const body = await errorBody(response);
        expect(body, path).toEqual({
          error: 'invalid_request',
          message: `The path parameter '${field}' must be a positive integer.`,
          details: { field, issue: expect.stringMatching(/digits/) },
        });
      }
      // The same rule on a write: the id is named before anything about the body.
      const patch = await call('/api/v1/invoices/1e3', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect((await errorBody(patch)).details?.field).toBe('invoice_id');
    });

    it('hands the handler the largest id as a number', async () => {
      const response = await call('/api/v1/invoices/2147483647');
      expect(response.status).toBe(404);
      expect((await errorBody(response)).message).toBe('Invoice 2147483647 was not found.');
    });

    it('names the body when it is valid JSON but not an object', async () => {
      for (const [raw, what] of [
        ['"text"', 'a string'],
        ['42', 'the number 42'],
        ['true', 'true'],
        ['false', 'false'],
        ['0', 'the number 0'],
        ['null', 'null'],
        ['[1, 2]', 'an array'],
      ] as const) {
        for (const path of ['/api/v1/invoices', '/api/v1/invoices/search', '/2.0/delivery/issue']) {
          const response = await postJson(path, raw);
          expect(response.status, `${path} ${raw}`).toBe(400);
          expect(await response.json(), `${path} ${raw}`).toEqual({
            error: 'invalid_request',
            message: `The request body must be a JSON object, not ${what}.`,
            details: { field: 'body', issue: 'must be a JSON object' },
          });
        }
      }
    });

    it('names a missing required parameter', async () => {
      const response = await postJson('/2.0/delivery/issue', { contact_id: 1, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        message: "Missing required parameter 'delivery_id'.",
        details: { field: 'delivery_id', issue: 'is required' },
      });
    });

    it('names a nested property with its JSON path', async () => {
      const response = await postJson('/2.0/delivery/issue', {
        delivery_id: 1,
        contact_id: 1,
        items: [
          { item_id: 1, quantity: 1, unit_price: 1 },
          { item_id: 2, quantity: 0, unit_price: 1 },
        ],
      });
      expect(response.status).toBe(400);
      // The bound itself (0 or 0.001) is the spec's; the layer names the property and says why.
      const body = await errorBody(response);
      expect(body).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        details: { field: 'items[1].quantity', issue: expect.stringMatching(/^must be >/) },
      });
      expect(body.message).toBe(`Invalid 'items[1].quantity': ${body.details?.issue}.`);
    });

    it('reports decimal places in words, and the first problem in body order', async () => {
      const response = await postJson('/2.0/delivery/issue', { items: [{ item_id: 1, quantity: 1, unit_price: 1.23456 }], delivery_id: 'x', contact_id: 1 });
      expect(response.status).toBe(400);
      expect((await errorBody(response)).details).toEqual({ field: 'items[0].unit_price', issue: 'must have at most 4 decimals' });
    });

    it('says a null is not allowed', async () => {
      const response = await postJson('/2.0/delivery/issue', { delivery_id: null, contact_id: 1, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: "Invalid 'delivery_id': must not be null.", details: { field: 'delivery_id' } });
    });

    it('names an unknown query parameter', async () => {
      const response = await call('/2.0/delivery?page=2');
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        message: "Unknown query parameter 'page'.",
        details: { field: 'page', issue: 'is not a known parameter' },
      });
    });

    it('names a path id before a body that is not an object', async () => {
      const response = await call('/api/v1/invoices/__proto__', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: 'true' });
      expect(response.status).toBe(400);
      expect((await errorBody(response)).details?.field).toBe('invoice_id');
    });

    it('names a string holding a NUL character, which the database could not store', async () => {
      const response = await postJson('/api/v1/invoices', { client_id: 1, amount: 1, currency: 'CHF', due_date: '2026-12-31', description: 'a\u0000b' });
      expect(response.status).toBe(400);
      expect(await errorBody(response)).toMatchObject({
        error: 'invalid_request',
        details: { field: 'description', issue: 'must not contain the NUL character (U+0000)' },
      });
      const search = await postJson('/api/v1/invoices/search', { criteria: [{ field: 'description', operator: '=', value: 'a\u0000b' }] });
      expect(search.status).toBe(400);
      expect(await errorBody(search)).toMatchObject({
        error: 'invalid_request',
        details: { field: 'criteria[0].value', issue: expect.stringContaining('NUL') },
      });
    });

    it('answers a body with thousands of invalid elements with the first problem in body order', async () => {
      const items = Array.from({ length: 20_000 }, () => ({}));
      const tooMany = await postJson('/2.0/delivery/issue', { delivery_id: 1, contact_id: 1, items });
      expect(tooMany.status).toBe(400);
      expect((await errorBody(tooMany)).details).toEqual({ field: 'items', issue: 'must NOT have more than 500 items' });
      const earlier = await postJson('/2.0/delivery/issue', { delivery_id: 'one', contact_id: 1, items });
      expect((await errorBody(earlier)).details?.field).toBe('delivery_id');
      const unknown = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`extra_${index}`, index]));
      const manyUnknown = await postJson('/api/v1/invoices/search', { limit: 10, ...unknown });
      expect((await errorBody(manyUnknown)).details).toEqual({ field: 'extra_0', issue: 'is not a known property' });
    });

    it('answers a malformed JSON body', async () => {
      const response = await postJson('/api/v1/invoices/search', '{"limit": 10,');
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toEqual({ error: 'invalid_request', message: expect.stringMatching(/^The request body is not valid JSON/) });
    });

    it('answers a JSON body that is not an object', async () => {
      const response = await postJson('/api/v1/invoices/search', '[1, 2]');
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request', details: { field: 'body' } });
    });
  });

  describe('401 unauthorized', () => {
    it('answers a missing token with the bare challenge (no error code, RFC 6750 3.1)', async () => {
      const response = await call('/api/v1/users', { token: null });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="invoice-api"');
      expect(await response.json()).toEqual({
        error: 'unauthorized',
        message: 'The access token is missing; a missing, invalid or expired token is refused. Send Authorization: Bearer <token>.',
      });
    });

    it('answers another scheme than Bearer', async () => {
      const response = await fetch(`${service.url}/api/v1/users`, { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } });
      expect(response.status).toBe(401);
    });

    it('answers an expired token (beyond the 30 s tolerance)', async () => {
      const response = await call('/api/v1/users', { token: await token({ ttlSeconds: -120 }) });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'unauthorized' });
    });
  });

  describe('order of checks', () => {
    it('answers 401 for a bad token with a malformed body', async () => {
      const response = await postJson('/api/v1/invoices/search', '{not json', { token: 'garbage' });
      expect(response.status).toBe(401);
    });

    it('answers 401 for a bad token with an oversize body', async () => {
      const response = await postJson('/api/v1/invoices/search', JSON.stringify({ description: 'x'.repeat(2 * mebibyte) }), { token: null });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'unauthorized' });
    });

    it('answers 403 for a token without the scope, whatever the body', async () => {
      const readOnly = await token({ scopes: ['users:read'] });
      expect((await postJson('/api/v1/invoices/search', '{not json', { token: readOnly })).status).toBe(403);
      expect((await postJson('/api/v1/invoices/search', { limit: 5000 }, { token: readOnly })).status).toBe(403);
      expect((await postJson('/api/v1/invoices/search', 'x'.repeat(mebibyte + 10), { token: readOnly })).status).toBe(403);
    });

    it('answers 404/405 for a path or method outside the API before looking at the token', async () => {
      expect((await call('/api/v1/nothing', { token: null })).status).toBe(404);
      expect((await call('/api/v1/users', { method: 'DELETE', token: null })).status).toBe(405);
    });
  });

  describe('403 forbidden', () => {
    it('names the operation and the missing scope', async () => {
      const response = await postJson('/api/v1/invoices/search', {}, { token: await token({ scopes: ['deliveries:read'] }) });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="invoice-api", error="insufficient_scope", scope="invoices:read"');
      expect(await response.json()).toEqual({
        error: 'forbidden',
        message: "Your permissions to search invoices are insufficient: the token needs the scope 'invoices:read'.",
      });
    });

    it('builds the message from the operation summary', async () => {
      const response = await call('/api/v1/invoices/7', { token: await token({ scopes: [] }) });
      expect(response.status).toBe(403);
      expect((await errorBody(response)).message).toBe("Your permissions to get an invoice are insufficient: the token needs the scope 'invoices:read'.");
    });
  });

  describe('404, 405, 413, 415', () => {
    it('answers an unknown path with not_found', async () => {
      const response = await call('/api/v2/invoices');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    });

    it('passes a handler ApiError through as it is', async () => {
      const response = await call('/api/v1/invoices/4242');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', message: 'Invoice 4242 was not found.' });
    });

    it('answers a known path with another method with 405 and Allow', async () => {
      const response = await call('/api/v1/invoices/7', { method: 'PUT' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
      expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
    });

    it('treats the concrete path /2.0/delivery/issue as that path, not as an id', async () => {
      const response = await call('/2.0/delivery/issue');
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });

    it("answers HEAD of a GET with the GET's status and headers, without a body (not 405)", async () => {
      const get = await call('/api/v1/users');
      const head = await call('/api/v1/users', { method: 'HEAD' });
      expect([head.status, head.headers.get('content-type'), head.headers.get('content-length')]).toEqual([
        200,
        get.headers.get('content-type'),
        String((await get.arrayBuffer()).byteLength),
      ]);
      expect(await head.text()).toBe('');
    });

    it('answers a body over 1 MiB with 413', async () => {
      const response = await postJson('/api/v1/invoices/search', JSON.stringify({ description: 'x'.repeat(mebibyte) }));
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ error: 'payload_too_large', message: 'The request body is larger than 1 MiB.' });
    });

    it('answers another content type with 415', async () => {
      const response = await call('/2.0/delivery/issue', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'delivery 1' });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: 'unsupported_media_type', message: 'The request body must be application/json.' });
    });

    it('accepts a search without any body', async () => {
      const response = await call('/api/v1/invoices/search', { method: 'POST' });
      expect(response.status).toBe(200);
    });
  });

  describe('500 and 503', () => {
    it('hides the cause of an unexpected failure', async () => {
      const response = await call('/api/v1/users/3');
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toMatch(/select|secret|stack|at /i);
      expect(JSON.parse(text)).toEqual({ error: 'internal_error', message: expect.stringContaining('X-Request-Id') });
    });

    it('answers a handler response the spec does not allow with 500', async () => {
      const response = await call('/2.0/delivery/5');
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: 'internal_error' });
    });

    it('answers an unreachable database with 503 and Retry-After', async () => {
      const response = await call('/api/v1/company_clients/3');
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await response.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    });
  });

  it("adds the spec's required headers to a handler's own 401 and 503", async () => {
    const unauthorized = await call('/api/v1/invoices/3', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="invoice-api"');
    const unavailable = await postJson('/2.0/delivery', { contact_id: 1 });
    expect(unavailable.status).toBe(503);
    expect(Number(unavailable.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers every error as a JSON Error object', async () => {
    const responses = await Promise.all([call('/nope'), call('/api/v1/users', { token: null }), call('/api/v1/invoices/x')]);
    for (const response of responses) {
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject(errorShape);
    }
  });
});
