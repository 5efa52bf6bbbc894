// Stateless scenarios, run against every target (mock, proxy, service): shapes, authentication,
// validation errors. Assertions that only the real service can satisfy (a message naming the field)
// are in the stateful files; what is here must hold for the mock's examples too.
import { describe, expect, inject, it } from 'vitest';
import { operationTable, type OperationId } from '@invoice-api/contract';
import { clientFor, rawRequest, tokenFor } from '../src/clients.js';
import { validCall } from '../src/valid-calls.js';

const targets = inject('contractTargets');
const securedOperations = (Object.keys(operationTable) as OperationId[]).filter((id) => operationTable[id].authenticated);

describe.each(targets)('$name: stateless contract', (target) => {
  it('getHealth answers {status: "ok"} without a token', async () => {
    const api = await clientFor(target, { anonymous: true });
    const result = await api.getHealth();
    expect(result).toMatchObject({ ok: true, status: 200, data: { status: 'ok' } });
  });

  it('searchInvoices with no body answers a page in the documented envelope', async () => {
    const api = await clientFor(target);
    const result = await api.searchInvoices();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { data, pagination } = result.data;
    expect(Array.isArray(data)).toBe(true);
    expect(data.length).toBeLessThanOrEqual(pagination.limit);
    expect(pagination.has_more).toBe(pagination.offset + data.length < pagination.total);
    for (const invoice of data)
      expect(Object.keys(invoice).sort()).toEqual([
        'amount',
        'client_id',
        'client_name',
        'created_at',
        'currency',
        'description',
        'due_date',
        'id',
        'invoice_number',
        'status',
        'updated_at',
      ]);
  });

  it.each(securedOperations)('%s without a token is 401 unauthorized with WWW-Authenticate', async (operationId) => {
    const api = await clientFor(target, { anonymous: true });
    const result = await validCall(operationId)(api);
    expect(result.status).toBe(401);
    expect(result.ok ? undefined : result.error).toMatchObject({ error: 'unauthorized' });
    expect(result.response.headers.get('WWW-Authenticate')).toBeTruthy();
  });

  it('lists answer under the resource key, and a listed user and client can be read by id', async () => {
    const api = await clientFor(target);
    const users = await api.listUsers();
    const clients = await api.listCompanyClients();
    const deliveries = await api.listDeliveries({ limit: 5 });
    expect(users.ok && clients.ok && deliveries.ok).toBe(true);
    if (!users.ok || !clients.ok || !deliveries.ok) return;
    expect(deliveries.data.deliveries.length).toBeLessThanOrEqual(5);
    const [user] = users.data.users;
    const [client] = clients.data.company_clients;
    expect(user && client).toBeTruthy();
    if (!user || !client) return;
    const oneUser = await api.getUser(user.id);
    const oneClient = await api.getCompanyClient(client.id);
    expect(oneUser.ok && Object.keys(oneUser.data.user).sort()).toEqual(['created_at', 'email', 'id', 'name', 'role']);
    expect(oneClient.ok && Object.keys(oneClient.data.company_client).sort()).toEqual(['country', 'created_at', 'email', 'id', 'name']);
    // The mock answers its example whatever the id; the service answers the entry that was listed.
    if (target.stateful) {
      expect(oneUser.ok && oneUser.data.user).toEqual(user);
      expect(oneClient.ok && oneClient.data.company_client).toEqual(client);
    }
  });

  it('a search limit over 1000 is 400 invalid_request', async () => {
    const api = await clientFor(target);
    const result = await api.searchInvoices({ limit: 1001 });
    expect(result.status).toBe(400);
    expect(result.ok ? undefined : result.error.error).toBe('invalid_request');
  });

  it('a body that is not application/json is 415 unsupported_media_type', async () => {
    const token = await tokenFor(target);
    const result = await rawRequest(target, 'POST', '/api/v1/invoices/search', { token, body: 'limit=5', headers: { 'Content-Type': 'text/plain' } });
    expect(result.status).toBe(415);
    expect(result.body).toMatchObject({ error: 'unsupported_media_type' });
  });
});
