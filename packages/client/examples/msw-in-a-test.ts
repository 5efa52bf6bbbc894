import { createApiClient } from '@invoice-api/client';
import { createHandlers, operationHandlers } from '@invoice-api/client/msw';
import { setupServer } from 'msw/node';

const baseUrl = 'https://api.example.com';
const server = setupServer(...createHandlers({ baseUrl }));
server.listen({ onUnhandledRequest: 'error' }); // in a test file: beforeAll(); server.close() in afterAll()

// Create the client after listen(): openapi-fetch keeps the fetch it finds when the client is made.
// No retries in tests: a 503 is what the test asked for, not something to wait out.
const api = createApiClient({ baseUrl, token: 'any-token', retry: false });
const page = await api.searchInvoices({ criteria: [{ field: 'status', operator: '=', value: 'paid' }] });
console.log(page.status); // 200: the spec's first example of the answer

// One answer overridden, for one test (server.resetHandlers() in afterEach puts the default back):
server.use(operationHandlers.searchInvoices({ baseUrl, override: { status: 503 } }));
const down = await api.searchInvoices({});
console.log(down.status, down.response.headers.get('retry-after')); // 503 and the spec's Retry-After

server.close();
