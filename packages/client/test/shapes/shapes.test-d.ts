// Type-level tests of the fixture spec's generated client and query options: `pnpm typecheck` compiles
// this file (after generating the fixture's client), so each `@ts-expect-error` must meet a real
// error. `data` follows the operation table's kinds: a Blob for bytes, a string for text, undefined for
// no content, a ReadableStream when asked, the schema's type for JSON; a file part takes a Blob.
import { MutationObserver, QueryClient } from '@tanstack/query-core';
import { expectTypeOf } from 'vitest';
import type { components } from '../../../contract/test/fixtures/shapes/generated/schema.js';
import { generatedQueryOptions } from '../../../contract/test/fixtures/shapes/generated/client-query.js';
import type { ContractResult } from '../../src/result.js';
import type { ContractAcceptable, ContractRequestBody, ContractSuccessData } from '../../src/types.js';
import type { Contract } from '../../../contract/test/fixtures/shapes/generated/client-operations.js';
import type { ShapesClient } from './fixture.js';

type Schemas = components['schemas'];
declare const api: ShapesClient;

export async function answers(flag: boolean) {
  const report = await api.downloadReport(1);
  if (report.ok) expectTypeOf(report.data).toEqualTypeOf<Blob>();
  else expectTypeOf(report.error).toEqualTypeOf<Schemas['Error']>();

  // A success with a 304 beside its 200: no data on the 304, the body on the 200; the ETag both declare.
  const card = await api.getReportCard(7, { headers: { 'If-None-Match': '"7-2"' } });
  if (card.ok) {
    expectTypeOf(card.data).toEqualTypeOf<Schemas['Report'] | undefined>();
    expectTypeOf(card.etag).toEqualTypeOf<string>();
  }

  const log = await api.streamLog();
  if (log.ok) expectTypeOf(log.data).toEqualTypeOf<string>();

  const removed = await api.removeReport(1);
  if (removed.ok) expectTypeOf(removed.data).toEqualTypeOf<undefined>();

  const exported = await api.exportReports();
  if (exported.ok) expectTypeOf(exported.data).toEqualTypeOf<Schemas['ReportList'] | string>();
  const csv = await api.exportReports({ accept: 'text/csv' });
  if (csv.ok) expectTypeOf(csv.data).toEqualTypeOf<string>();
  const listed = await api.exportReports({ accept: 'application/json' });
  if (listed.ok) expectTypeOf(listed.data).toEqualTypeOf<Schemas['ReportList']>();

  const things = await api.listThings({ status: ['new', 'broken'] });
  if (things.ok) expectTypeOf(things.data).toEqualTypeOf<{ things: string[] }>();

  // Asked for, the body is a stream; asked for by a boolean known at run time, either.
  const streamed = await api.downloadReport(1, { stream: true });
  if (streamed.ok) expectTypeOf(streamed.data).toEqualTypeOf<ReadableStream<Uint8Array>>();
  const maybe = await api.streamLog({ stream: flag });
  if (maybe.ok) expectTypeOf(maybe.data).toEqualTypeOf<ReadableStream<Uint8Array> | string>();
  const whole = await api.streamLog({ stream: false, signal: AbortSignal.timeout(1) });
  if (whole.ok) expectTypeOf(whole.data).toEqualTypeOf<string>();
  expectTypeOf(streamed).toEqualTypeOf<ContractResult<Contract, 'downloadReport', { stream: true }>>();
  expectTypeOf<ContractSuccessData<Contract, 'streamLog'>>().toEqualTypeOf<string>();
  expectTypeOf<ContractAcceptable<Contract, 'exportReports'>>().toEqualTypeOf<'application/json' | 'text/csv'>();
  expectTypeOf<ContractAcceptable<Contract, 'downloadReport'>>().toEqualTypeOf<never>();

  // @ts-expect-error a stream is for answers that can be large: listThings answers JSON only
  await api.listThings({}, { stream: true });
  // @ts-expect-error nor does a 204 have a body to stream
  await api.removeReport(1, { stream: true });
  // @ts-expect-error exportReports answers JSON or CSV, not HTML
  await api.exportReports({ accept: 'text/html' });
  // @ts-expect-error only an operation with a choice of media types takes accept
  await api.downloadReport(1, { accept: 'application/pdf' });
}

export async function bodies() {
  const file = new File(['%PDF'], 'a.pdf', { type: 'application/pdf' });
  await api.uploadDocument({ file, title: 'x' });
  await api.uploadDocument({ file: new Blob(['%PDF']) });
  expectTypeOf<ContractRequestBody<Contract, 'uploadDocument'>>().toEqualTypeOf<{ file: Blob; title?: string }>();
  // @ts-expect-error a file part takes a Blob or File, not a string (openapi-typescript says `string`)
  await api.uploadDocument({ file: 'a.pdf' });
  // @ts-expect-error the file is required
  await api.uploadDocument({ title: 'x' });
  // @ts-expect-error the title is a string
  await api.uploadDocument({ file, title: 3 });
  // @ts-expect-error no such part
  await api.uploadDocument({ file, note: 'x' });

  await api.uploadPair({ front: file, back: file });
  // @ts-expect-error both sides are required
  await api.uploadPair({ front: file });

  await api.postNote('Call back on Monday');
  // @ts-expect-error a text body is a string
  await api.postNote({ text: 'x' });

  await api.listThings({ status: ['new'], tags: ['a'], filter: { color: 'red', size: 3 } });
  // @ts-expect-error status is one of new, used, broken
  await api.listThings({ status: ['old'] });
  // @ts-expect-error size is a number
  await api.listThings({ filter: { size: '3' } });
}

export async function queryOptions() {
  const q = generatedQueryOptions(api);
  const queryClient = new QueryClient();
  expectTypeOf(await queryClient.fetchQuery(q.downloadReportOptions({ path: { report_id: 1 } }))).toEqualTypeOf<Blob>();
  expectTypeOf(await queryClient.fetchQuery(q.streamLogOptions())).toEqualTypeOf<string>();
  expectTypeOf(await queryClient.fetchQuery(q.exportReportsOptions())).toEqualTypeOf<Schemas['ReportList'] | string>();
  expectTypeOf(queryClient.getQueryData(q.downloadReportQueryKey({ path: { report_id: 1 } }))).toEqualTypeOf<Blob | undefined>();

  // The multipart upload is a write: a mutation whose variables carry the file.
  const upload = new MutationObserver(queryClient, q.uploadDocumentMutation());
  expectTypeOf(await upload.mutate({ body: { file: new File([], 'a.pdf') } })).toEqualTypeOf<Schemas['Document']>();
  // @ts-expect-error a string is no file, in a mutation either
  await upload.mutate({ body: { file: 'a.pdf' } });
  expectTypeOf<Extract<keyof typeof q, `uploadDocument${string}`>>().toEqualTypeOf<'uploadDocumentMutation'>();
  expectTypeOf(await new MutationObserver(queryClient, q.removeReportMutation()).mutate({ path: { report_id: 1 } })).toEqualTypeOf<undefined>();
}
