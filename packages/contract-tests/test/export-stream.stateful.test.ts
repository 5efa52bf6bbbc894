// The CSV export through the generated client from a real service: `{ stream: true }` gives the body
// unread as a ReadableStream, read here chunk by chunk, and it holds exactly the text the same call
// answers whole, one record per invoice the search counts. Directly only: Prism's proxy would hold
// the body, which is not what a streaming client meets.
import { describe, expect, it } from 'vitest';
import { expectOk } from '@invoice-api/client';
import { clientFor } from '../src/clients.js';
import { directTargets } from '../src/stateful.js';

describe.each(directTargets())('$name: exportInvoices streamed by the client', (target) => {
  it('streams the CSV the whole answer holds, one record per invoice of the account', async () => {
    const api = await clientFor(target);
    const body = { order_by: 'id', order_direction: 'asc' } as const;
    const streamed = await expectOk(api.exportInvoices(body, { stream: true }));
    expect(streamed).toBeInstanceOf(ReadableStream);
    const decoder = new TextDecoder();
    let text = '';
    let chunks = 0;
    for await (const chunk of streamed as ReadableStream<Uint8Array>) {
      chunks += 1;
      text += decoder.decode(chunk, { stream: true });
    }
    text += decoder.decode();
    expect(chunks).toBeGreaterThan(0);
    const whole = await expectOk(api.exportInvoices(body));
    expect(text).toBe(whole);
    const { pagination } = await expectOk(api.searchInvoices({ limit: 1 }));
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('id,invoice_number,client_id,client_name,amount,currency,status,due_date,created_at,updated_at,description');
    // A description may hold line breaks in quotes: count records by their leading id instead.
    expect(text.match(/\r\n\d+,/g)?.length).toBe(pagination.total);
  });
});
