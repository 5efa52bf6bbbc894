// The caller's trace context on every call: with the OpenTelemetry API and an active span, each call
// carries that span's `traceparent` (the same on every retry of the call); without a source, or outside
// any span, no trace header is sent.
import { ROOT_CONTEXT, context, propagation, trace, TraceFlags, type SpanContext } from '@opentelemetry/api';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, openTelemetryTraceContext } from '../src/index.js';
import { scriptedFetch } from './fake-fetch.js';

const callerSpan: SpanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
const users = { status: 200, body: { users: [] } };

describe('traceContext', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    propagation.disable();
    context.disable();
  });

  it("sends the active span's traceparent, the same on a retried attempt", async () => {
    const fake = scriptedFetch({ status: 503, headers: { 'Retry-After': '0' } }, users);
    const client = createApiClient({ baseUrl: 'http://api.test', token: 't', fetch: fake.fetch, traceContext: openTelemetryTraceContext(api) });
    await context.with(trace.setSpanContext(ROOT_CONTEXT, callerSpan), () => client.listUsers());
    expect(fake.seen.map((request) => request.headers.get('traceparent'))).toEqual([
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ]);
  });

  it('sends no trace header outside a span, or without a source', async () => {
    const fake = scriptedFetch(users, users);
    const traced = createApiClient({ baseUrl: 'http://api.test', token: 't', fetch: fake.fetch, traceContext: openTelemetryTraceContext(api) });
    await traced.listUsers();
    const plain = createApiClient({ baseUrl: 'http://api.test', token: 't', fetch: fake.fetch });
    await context.with(trace.setSpanContext(ROOT_CONTEXT, callerSpan), () => plain.listUsers());
    expect(fake.seen.map((request) => request.headers.get('traceparent'))).toEqual([null, null]);
  });

  it("lets a call's own headers win over the trace context", async () => {
    const fake = scriptedFetch(users);
    const client = createApiClient({ baseUrl: 'http://api.test', token: 't', fetch: fake.fetch, traceContext: () => ({ traceparent: 'from-source' }) });
    await client.listUsers({ headers: { traceparent: 'from-call' } });
    expect(fake.seen[0]?.headers.get('traceparent')).toBe('from-call');
  });
});
