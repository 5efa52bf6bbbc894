// The most expensive searches the decided limits allow: 20 criteria (the most a search takes), each an
// `in` of 1,000 values (the most an `in` takes), as long strings (about 659 KB of JSON) or integers,
// and one `in` of 1,000 strings. One API key inside its rate limit can send these all day, so each
// must stay cheap (target: under 100 ms on both engines). Timed one request at a time, in rounds that
// alternate the services compared, so both sides see the same machine.
import { searchRules, type InvoiceSearchRequest } from '@invoice-api/contract';
import { send } from './http-request.js';

export interface WorstCaseScenario {
  name: string;
  body: InvoiceSearchRequest;
}

/** A string of `length` characters, distinct per (criterion, element): no value repeats within a search. */
function text(criterion: number, element: number, length: number): string {
  return `W${criterion}-${element}-`.padEnd(length, 'x');
}

/** The searches; `in` values match no invoice, as an attacker's would, so the cost is the search's own. */
export function worstCaseScenarios(): WorstCaseScenario[] {
  const criteria = searchRules.maxCriteria;
  const elements = searchRules.valueRules.in.maxItems;
  // The two text fields that take `in`, alternately: 30-character values make the body about 659 KB.
  const textFields = ['invoice_number', 'description'] as const;
  const strings: InvoiceSearchRequest['criteria'] = Array.from({ length: criteria }, (_, criterion) => ({
    field: textFields[criterion % textFields.length]!,
    operator: 'in' as const,
    value: Array.from({ length: elements }, (_, element) => text(criterion, element, 30)),
  }));
  const integers: InvoiceSearchRequest['criteria'] = Array.from({ length: criteria }, (_, criterion) => ({
    field: 'client_id' as const,
    operator: 'in' as const,
    value: Array.from({ length: elements }, (_, element) => 1_000_000 + criterion * elements + element),
  }));
  // Criteria combine with AND, and the service merges the `in` lists of one field into one (their
  // common values): this search gives each of the seven fields that take `in` the same 1,000 values
  // every time it names the field, so merging leaves seven full lists.
  const statuses = searchRules.valueTypes.status.enum;
  const inLists: Record<string, Array<string | number>> = {
    client_id: Array.from({ length: elements }, (_, element) => 1_000_000 + element),
    amount: Array.from({ length: elements }, (_, element) => 1_000_000 + element / 100),
    due_date: Array.from({ length: elements }, (_, element) => new Date(Date.UTC(2040, 0, 1 + element)).toISOString().slice(0, 10)),
    status: Array.from({ length: elements }, (_, element) => statuses[element % statuses.length]!),
    currency: Array.from({ length: elements }, (_, element) => String.fromCharCode(65 + (element % 26), 65 + (Math.floor(element / 26) % 26), 90)),
    invoice_number: Array.from({ length: elements }, (_, element) => text(0, element, 30)),
    description: Array.from({ length: elements }, (_, element) => text(1, element, 30)),
  };
  const inFields = Object.entries(searchRules.fields)
    .filter(([, rule]) => (rule.operators as readonly string[]).includes('in'))
    .map(([field]) => field);
  const everyField = Array.from({ length: criteria }, (_, criterion) => {
    const field = inFields[criterion % inFields.length]!;
    return { field, operator: 'in', value: inLists[field] };
  }) as InvoiceSearchRequest['criteria'];
  return [
    { name: `${criteria} x in of ${elements} strings`, body: { criteria: strings } },
    { name: `${criteria} x in of ${elements} over the ${inFields.length} fields that take in`, body: { criteria: everyField } },
    { name: `${criteria} x in of ${elements} integers`, body: { criteria: integers } },
    { name: `one in of ${elements} strings`, body: { criteria: [{ field: 'description', operator: 'in', value: strings?.[1]?.value as string[] }] } },
  ];
}

export function bodyKilobytes(body: unknown): number {
  return Buffer.byteLength(JSON.stringify(body)) / 1000;
}

export interface Samples {
  /** Milliseconds per request, in the order measured. */
  latencies: number[];
  errors: number;
}

/** One search request, timed from sending the body to the last byte of the answer. */
export async function timeSearch(url: string, token: string, body: string, expectStatus = 200): Promise<{ ms: number; ok: boolean }> {
  const begin = performance.now();
  const { status } = await send(new URL('/api/v1/invoices/search', url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body,
    timeoutMs: 60_000,
  });
  return { ms: performance.now() - begin, ok: status === expectStatus };
}

export interface Target {
  name: string;
  url: string;
}

/**
 * `rounds` rounds; in each, every target answers `perRound` requests of `body`, the targets' order
 * turning from round to round. Two warm-up requests per target first, discarded.
 */
export async function interleavedSamples(
  targets: readonly Target[],
  token: string,
  body: unknown,
  rounds: number,
  perRound: number,
): Promise<Map<string, Samples>> {
  const text = JSON.stringify(body);
  const samples = new Map<string, Samples>(targets.map((target) => [target.name, { latencies: [], errors: 0 }]));
  for (const target of targets) for (let index = 0; index < 2; index += 1) await timeSearch(target.url, token, text);
  for (let round = 0; round < rounds; round += 1) {
    const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
    for (const target of order) {
      const own = samples.get(target.name)!;
      for (let index = 0; index < perRound; index += 1) {
        const { ms, ok } = await timeSearch(target.url, token, text);
        own.latencies.push(ms);
        if (!ok) own.errors += 1;
      }
    }
  }
  return samples;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `42.1 ms (40.3-47.9)`: median and range. */
export function describeSamples(samples: Samples): string {
  const { latencies } = samples;
  const range = `${Math.min(...latencies).toFixed(1)}-${Math.max(...latencies).toFixed(1)}`;
  return `${median(latencies).toFixed(1)} ms (${range})${samples.errors > 0 ? `, ${samples.errors} failed` : ''}`;
}

/** The worst-case target: every request under this, on both engines. */
export const worstCaseTargetMs = 100;

/** One printed line per worst-case search on the service at `url`: median, range, and the verdict. */
export async function worstCaseLines(engine: string, url: string, token: string, requests: number): Promise<string[]> {
  const lines: string[] = [];
  for (const scenario of worstCaseScenarios()) {
    const samples = (await interleavedSamples([{ name: engine, url }], token, scenario.body, 1, requests)).get(engine)!;
    const met = samples.errors === 0 && Math.max(...samples.latencies) < worstCaseTargetMs;
    lines.push(
      `worst-case search on ${engine}, ${scenario.name} (${bodyKilobytes(scenario.body).toFixed(0)} KB), ${requests} requests one at a time: ${describeSamples(samples)}; target < ${worstCaseTargetMs} ms for every request: ${met ? 'met' : 'missed'}`,
    );
  }
  return lines;
}
