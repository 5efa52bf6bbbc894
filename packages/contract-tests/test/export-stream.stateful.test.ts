// The CSV export through the generated client from a real service: `{ stream: true }` gives the body
// unread as a ReadableStream, read here chunk by chunk, and it holds exactly the text the same call
// answers whole, one record per invoice the search counts. Directly only: Prism's proxy would hold
// the body, which is not what a streaming client meets.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectOk } from '@invoice-api/client';
import { clientFor } from '../src/clients.js';
import { companyClients, directTargets } from '../src/stateful.js';

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
// the export here selects only invoices this test created, by a marker in their descriptions, so
// the streamed and the whole answer are of the same rows whatever the other files do. Long
// descriptions make the answer several of the service's 64 KiB chunks.
const created = 80;

describe.each(directTargets())('$name: exportInvoices streamed by the client', (target) => {
  it('streams the CSV the whole answer holds, one record per invoice the search counts', async () => {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const marker = `export-stream ${randomUUID()}`;
    // A comma, a quote and a line break: each record needs the CSV's quoting.
    const description = (index: number) => `${marker} #${index}, "quoted"\n${'x'.repeat(900)}`;
    for (let index = 0; index < created; index += 1) {
      await expectOk(
        api.createInvoice({ client_id: client?.id ?? 0, amount: 10 + index, currency: 'CHF', due_date: '2027-06-30', description: description(index) }),
      );
    }
    const criteria = [{ field: 'description' as const, operator: 'like' as const, value: marker }];
    const body = { criteria, order_by: 'id', order_direction: 'asc' } as const;

    const streamed = await expectOk(api.exportInvoices(body, { stream: true }));
    expect(streamed).toBeInstanceOf(ReadableStream);
    const { text, chunks } = await readStream(streamed as ReadableStream<Uint8Array>);
    const whole = await expectOk(api.exportInvoices(body));
    const { total } = (await expectOk(api.searchInvoices({ criteria, limit: 1 }))).pagination;

    expect(total).toBe(created);
    expect(chunks).toBeGreaterThan(1);
    expect(text).toBe(whole);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('id,invoice_number,client_id,client_name,amount,currency,status,due_date,created_at,updated_at,description');
    // A description holds a line break in quotes: count records by their leading id instead.
    expect(text.match(/\r\n\d+,/g)?.length).toBe(created);
    for (let index = 0; index < created; index += 1) expect(text).toContain(`"${marker} #${index}, ""quoted""\n`);
  });
});
