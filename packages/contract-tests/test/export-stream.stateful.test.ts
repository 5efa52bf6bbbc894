// The CSV export through the generated client from a real service: `{ stream: true }` gives the body
// unread as a ReadableStream, read here chunk by chunk, and it holds exactly the text the same call
// answers whole, one record per invoice the search counts. Directly only: Prism's proxy would hold
// the body, which is not what a streaming client meets.
import { describe, expect, it } from 'vitest';
import { expectOk } from '@invoice-api/client';
import { clientFor } from '../src/clients.js';
import { directTargets } from '../src/stateful.js';

/** The text of a streamed body, read chunk by chunk, and how many chunks it came in. */
async function readStream(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const decoder = new TextDecoder();
  let text = '';
  let chunks = 0;
  for await (const chunk of stream) {
    chunks += 1;
    text += decoder.decode(chunk, { stream: true });
  }
  return { text: text + decoder.decode(), chunks };
}

// The target's accounts are shared with the other files of the run, which write invoices meanwhile:
// one attempt compares the streamed and the whole answer and the search's total only when the total
// stayed the same around it, and retries otherwise. A stream that differs from the whole answer
// differs in every attempt, so a real fault still fails.
const attempts = 5;

describe.each(directTargets())('$name: exportInvoices streamed by the client', (target) => {
  it('streams the CSV the whole answer holds, one record per invoice of the account', async () => {
    const api = await clientFor(target);
    const body = { order_by: 'id', order_direction: 'asc' } as const;
    const total = async () => (await expectOk(api.searchInvoices({ limit: 1 }))).pagination.total;
    let outcome: { text: string; chunks: number; whole: string; total: number } | undefined;
    let lastSeen = '';
    for (let attempt = 0; attempt < attempts && outcome === undefined; attempt += 1) {
      const before = await total();
      const streamed = await expectOk(api.exportInvoices(body, { stream: true }));
      expect(streamed).toBeInstanceOf(ReadableStream);
      const { text, chunks } = await readStream(streamed as ReadableStream<Uint8Array>);
      const whole = await expectOk(api.exportInvoices(body));
      const after = await total();
      const records = text.match(/\r\n\d+,/g)?.length;
      lastSeen = `totals ${before} and ${after}, ${records} records, stream and whole ${text === whole ? 'equal' : 'different'}`;
      if (before === after && text === whole && records === before) outcome = { text, chunks, whole, total: before };
    }
    expect(outcome, `no attempt of ${attempts} was undisturbed and consistent; the last: ${lastSeen}`).toBeDefined();
    const { text, chunks, whole, total: counted } = outcome!;
    expect(chunks).toBeGreaterThan(0);
    expect(text).toBe(whole);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('id,invoice_number,client_id,client_name,amount,currency,status,due_date,created_at,updated_at,description');
    // A description may hold line breaks in quotes: count records by their leading id instead.
    expect(text.match(/\r\n\d+,/g)?.length).toBe(counted);
  });
});
