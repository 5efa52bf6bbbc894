// The client's MSW handlers refuse what the service refuses, in its words: every search body of the
// contract suite (64 invalid, 13 valid) and a set of requests that break other rules (no token, a
// body that is not JSON or not an object, an unknown property, a bad path id, an unknown or out of
// range query parameter, a NUL character) go to the real service (in this process, PGlite in memory)
// and to `setupServer(...createHandlers())`, and the answers are compared field by field: status,
// `error`, `message`, `details.field`, `details.issue`, and the Bearer challenge of a 401.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '@invoice-api/client/msw';
import { loadConfig, startService, type RunningService } from '@invoice-api/server';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { criteria, invalidSearches, validSearches } from '../src/search-bodies.js';

/** The handlers' origin: no real server listens there, and requests to the service are not theirs. */
const mockOrigin = 'http://msw.invalid';

interface Sent {
  method: string;
  path: string;
  body?: string;
  /** Default: a valid bearer token and, with a body, `Content-Type: application/json`. */
  headers?: Record<string, string>;
  anonymous?: boolean;
}

/** The parts of an answer the two must agree on. */
interface Compared {
  status: number;
  error?: unknown;
  message?: unknown;
  details?: unknown;
  challenge: string | null;
}

const workDir = mkdtempSync(join(tmpdir(), 'msw-handlers-'));
const keyFile = join(workDir, 'dev-key.json');
const mock = setupServer(...createHandlers({ baseUrl: mockOrigin }));
let service: RunningService;
let token: string;

// Timeouts here are upper bounds that only end a hung run, not waits: the set-up starts the service and waits for it
// to listen (seconds when idle, a minute or more when the rest of the suite saturates the machine).
beforeAll(async () => {
  token = await mintDevToken({ keyFile, clientId: 'msw-handlers' });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: 'memory:',
    DEV_KEY_FILE: keyFile,
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'off',
    RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
    RATE_LIMIT_SEARCH_PER_HOUR: '1000000',
    RATE_LIMIT_EXPORT_PER_MINUTE: '1000000',
    RATE_LIMIT_EXPORT_PER_HOUR: '1000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  service = await startService(config);
  // Requests to the service are not the handlers': they go out to it unchanged.
  mock.listen({ onUnhandledRequest: 'bypass' });
}, 120_000);

afterAll(async () => {
  mock.close();
  await service?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

async function answer(origin: string, sent: Sent): Promise<Compared> {
  const headers: Record<string, string> = {
    ...(sent.anonymous ? {} : { Authorization: `Bearer ${token}` }),
    ...(sent.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...sent.headers,
  };
  const response = await fetch(`${origin}${sent.path}`, { method: sent.method, headers, ...(sent.body === undefined ? {} : { body: sent.body }) });
  const text = await response.text();
  const body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  const compared: Compared = { status: response.status, challenge: response.headers.get('www-authenticate') };
  // Only an error answer's words are compared: a 2xx body is the service's data or the mock's example.
  if (response.status >= 400) Object.assign(compared, { error: body.error, message: body.message, details: body.details });
  return compared;
}

async function bothAnswer(sent: Sent): Promise<{ service: Compared; mock: Compared }> {
  const [fromService, fromMock] = await Promise.all([answer(service.url, sent), answer(mockOrigin, sent)]);
  return { service: fromService, mock: fromMock };
}

const search = (body: unknown): Sent => ({ method: 'POST', path: '/api/v1/invoices/search', body: JSON.stringify(body) });

describe('search bodies: the handlers answer as the service does', () => {
  it('the table is the contract suite’s: 64 invalid and 13 valid bodies', () => {
    expect(invalidSearches).toHaveLength(64);
    expect(validSearches).toHaveLength(13);
  });

  it.each(invalidSearches)('$name: the same 400', async ({ body, field }) => {
    const { service: fromService, mock: fromMock } = await bothAnswer(search(body));
    expect(fromService).toMatchObject({ status: 400, details: { field } });
    expect(fromMock).toEqual(fromService);
  });

  it.each(validSearches)('$name: both take it', async ({ body }) => {
    const { service: fromService, mock: fromMock } = await bothAnswer(search(body));
    expect(fromService.status).toBe(200);
    expect(fromMock).toEqual(fromService);
  });

  it('a between with reversed bounds, which only the service code can refuse: the same 400', async () => {
    const { service: fromService, mock: fromMock } = await bothAnswer(search(criteria(['amount', 'between', [10, 9.99]])));
    expect(fromService).toMatchObject({ status: 400, details: { field: 'amount' } });
    expect(fromMock).toEqual(fromService);
  });
});

const otherRefusals: Array<{ name: string; sent: Sent }> = [
  { name: 'a search without a token', sent: { ...search({}), anonymous: true } },
  { name: 'a read without a token', sent: { method: 'GET', path: '/api/v1/invoices/1', anonymous: true } },
  { name: 'a token that is not token68', sent: { method: 'GET', path: '/api/v1/users', headers: { Authorization: 'Bearer a b' } } },
  { name: 'no token and a malformed body: 401 first', sent: { method: 'POST', path: '/api/v1/invoices/search', body: '{', anonymous: true } },
  { name: 'a body that is not JSON', sent: { method: 'POST', path: '/api/v1/invoices/search', body: '{"limit": 5,' } },
  { name: 'a body that is JSON but not an object', sent: { method: 'POST', path: '/2.0/delivery', body: '[1]' } },
  // The body as the operation table says it is carried (requestMedia): another media type, none where
  // one is required, JSON in another charset, an empty JSON body (read as `{}`).
  { name: 'a body of a media type the operation does not take', sent: { ...search({}), headers: { 'Content-Type': 'text/plain' } } },
  { name: 'a required body without a Content-Type', sent: { method: 'POST', path: '/2.0/delivery' } },
  { name: 'a JSON body in a charset other than UTF-8', sent: { ...search({}), headers: { 'Content-Type': 'application/json; charset=latin1' } } },
  { name: 'an empty JSON body where one is required', sent: { method: 'POST', path: '/2.0/delivery/issue', body: '' } },
  {
    name: 'an unknown property of a create',
    sent: { method: 'POST', path: '/2.0/delivery', body: JSON.stringify({ contact_id: 1, items: [], color: 'red' }) },
  },
  { name: 'a missing required property', sent: { method: 'POST', path: '/2.0/delivery/issue', body: JSON.stringify({}) } },
  { name: 'a path id with a leading zero', sent: { method: 'GET', path: '/api/v1/invoices/007' } },
  { name: 'a bad path id and a malformed body: the body first', sent: { method: 'PATCH', path: '/2.0/delivery/x', body: '{' } },
  { name: 'an unknown query parameter', sent: { method: 'GET', path: '/api/v1/users?page=2' } },
  { name: 'a limit out of range', sent: { method: 'GET', path: '/2.0/delivery?limit=5000' } },
  { name: 'a limit that is not a number', sent: { method: 'GET', path: '/2.0/delivery?limit=ten' } },
  {
    name: 'a NUL character in a string',
    sent: {
      method: 'POST',
      path: '/2.0/delivery',
      body: JSON.stringify({ contact_id: 1, items: [{ item_id: 1, quantity: 1, unit_price: 1, title: 'a\u0000b' }] }),
    },
  },
];

describe('other refusals: the handlers answer as the service does', () => {
  it.each(otherRefusals)('$name', async ({ sent }) => {
    const { service: fromService, mock: fromMock } = await bothAnswer(sent);
    expect(fromService.status).toBeGreaterThanOrEqual(400);
    expect(fromMock).toEqual(fromService);
  });
});
