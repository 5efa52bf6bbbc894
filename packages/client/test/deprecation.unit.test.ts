// The client's deprecation warning: once per operation per client, from the answer's Deprecation header
// (what the service sends) or from the spec (an operation marked deprecated; the real spec marks none,
// so a scratch copy's operation table stands in).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSpec, type DeprecationFacts, type OperationId } from '@invoice-api/contract';
import { operationTable as buildTable } from '../../../scripts/lib/operation-table.mjs';
import { createApiClient, deprecationNotifier, type DeprecationWarning } from '../src/index.js';
import { scriptedFetch } from './fake-fetch.js';

const baseUrl = 'http://api.test';
const page = { data: [], pagination: { total: 0, limit: 50, offset: 0, has_more: false } };
const deprecated = {
  Deprecation: '@1793491200',
  Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
  Link: '</docs#operation/searchInvoices>; rel="deprecation"; type="text/html"',
};

afterEach(() => vi.restoreAllMocks());

/** The scripted fetch, with the answer's `url` set as a real fetch sets it (relative links resolve against it). */
function withUrls(fetch: (request: Request) => Promise<Response>) {
  return async (request: Request) => Object.defineProperty(await fetch(request), 'url', { value: request.url });
}

describe('deprecation warnings', () => {
  it('reports a Deprecation header once per operation, with its dates and the absolute docs link', async () => {
    const fake = scriptedFetch(
      { status: 200, body: page, headers: deprecated },
      { status: 200, body: page, headers: deprecated },
      { status: 200, body: { users: [] }, headers: { ...deprecated, Link: '</docs#operation/listUsers>; rel="deprecation"' } },
    );
    const warnings: DeprecationWarning[] = [];
    const api = createApiClient({ baseUrl, token: 't', fetch: withUrls(fake.fetch), onDeprecation: (warning) => warnings.push(warning) });
    await api.searchInvoices({ offset: 10 });
    await api.searchInvoices({ offset: 20 });
    await api.listUsers();
    expect(warnings).toEqual([
      {
        operationId: 'searchInvoices',
        source: 'header',
        deprecatedSince: '2026-11-01T00:00:00.000Z',
        sunset: '2027-06-30T00:00:00.000Z',
        link: 'http://api.test/docs#operation/searchInvoices',
        message:
          '@invoice-api/client: searchInvoices was answered with a Deprecation header (the call uses something deprecated) since 2026-11-01; it may stop working from 2027-06-30; see http://api.test/docs#operation/searchInvoices',
      },
      expect.objectContaining({ operationId: 'listUsers', link: 'http://api.test/docs#operation/listUsers' }),
    ]);
  });

  it('warns with console.warn by default, and says nothing for answers without the header', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = scriptedFetch({ status: 200, body: page }, { status: 200, body: page, headers: deprecated }, { status: 200, body: page, headers: deprecated });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    await api.searchInvoices();
    expect(warn).not.toHaveBeenCalled();
    await api.searchInvoices();
    await api.searchInvoices();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('searchInvoices was answered with a Deprecation header');
    // Another client warns again: once per client, not per process.
    const again = createApiClient({ baseUrl, token: 't', fetch: scriptedFetch({ status: 200, body: page, headers: deprecated }).fetch });
    await again.searchInvoices();
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('warns for an operation the spec marks deprecated even when the answer has no header (the Prism mock sends none)', () => {
    const spec = structuredClone(loadSpec());
    Object.assign(spec.paths['/api/v1/users']?.get as object, { deprecated: true, 'x-deprecated-since': '2026-11-01', 'x-sunset': '2027-06-30' });
    const table = buildTable(spec);
    const warnings: DeprecationWarning[] = [];
    const notify = deprecationNotifier(
      (warning) => warnings.push(warning),
      (operationId: OperationId): DeprecationFacts | null => table[operationId]?.deprecation ?? null,
    );
    const answer = () => Object.defineProperty(new Response('{}'), 'url', { value: 'http://mock.test/api/v1/users' });
    notify('listUsers', answer());
    notify('listUsers', answer());
    notify('getUser', answer());
    expect(warnings).toEqual([
      {
        operationId: 'listUsers',
        source: 'spec',
        deprecatedSince: '2026-11-01T00:00:00.000Z',
        sunset: '2027-06-30T00:00:00.000Z',
        link: 'http://mock.test/docs#operation/listUsers',
        message:
          '@invoice-api/client: listUsers is deprecated since 2026-11-01; it may stop working from 2027-06-30; see http://mock.test/docs#operation/listUsers',
      },
    ]);
  });
});
