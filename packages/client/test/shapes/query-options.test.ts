// The TanStack Query options generated for the fixture spec carry the client's shapes: the read of the
// PDF holds a Blob, the text read a string, and the multipart upload is a mutation whose variables carry
// the file and whose success invalidates what the spec's x-invalidates names.
import { MutationObserver, QueryClient } from '@tanstack/query-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { answering, baseUrl, json, loadShapes, shapesClient, type Shapes } from './fixture.js';

let shapes: Shapes;
// A fresh checkout generates the fixture's client first: seconds, not the hook's default ten.
beforeAll(async () => {
  shapes = await loadShapes();
}, 120_000);

describe('query options of the shapes', () => {
  it('reads the PDF into a Blob and the log into a string, cached under their keys', async () => {
    const fake = answering(
      new Response(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'application/pdf' } }),
      new Response('started\n', { headers: { 'Content-Type': 'text/plain' } }),
    );
    const q = shapes.query.generatedQueryOptions(shapesClient(shapes, { baseUrl, fetch: fake.fetch }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const report = await queryClient.fetchQuery(q.downloadReportOptions({ path: { report_id: 4 } }));
    expect(report).toBeInstanceOf(Blob);
    expect(report.type).toBe('application/pdf');
    expect(queryClient.getQueryData(q.downloadReportQueryKey({ path: { report_id: 4 } }))).toBe(report);
    expect(await queryClient.fetchQuery(q.streamLogOptions())).toBe('started\n');
  });

  it('uploads through a mutation, which invalidates the reads x-invalidates names', async () => {
    const stored = { id: 2, name: 'a.pdf', media_type: 'application/pdf', size: 4 };
    const fake = answering(json({ things: ['a'] }), json(stored, 201));
    const q = shapes.query.generatedQueryOptions(shapesClient(shapes, { baseUrl, fetch: fake.fetch }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await queryClient.fetchQuery(q.listThingsOptions());
    const file = new File(['%PDF'], 'a.pdf', { type: 'application/pdf' });
    const data = await new MutationObserver(queryClient, q.uploadDocumentMutation()).mutate({ body: { file, title: 'x' } });
    expect(data).toEqual(stored);
    const form = await fake.requests[1]!.formData();
    expect(form.get('title')).toBe('x');
    expect(queryClient.getQueryState(q.listThingsQueryKey())?.isInvalidated).toBe(true);
    expect(Object.keys(q).filter((name) => name.startsWith('uploadDocument'))).toEqual(['uploadDocumentMutation']);
  });
});
