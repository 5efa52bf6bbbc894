// What `validateResponses: true` costs the client per answer: a 50-row search answer, received
// through the client with the option on and off, in interleaved rounds (on, off, on, off, ...) so
// that a slower machine moment weighs on both sides alike. The fetch is in-process (a Response built
// from the same JSON text every time), so the figures are the client's own work: parsing, shaping
// the result and, when on, the generated validators. No database, no network.
// `pnpm bench -- --client-validation` prints it.
import { createApiClient } from '@invoice-api/client';
import type { Invoice, InvoiceSearchResult } from '@invoice-api/contract';
import { percentile } from './figures.js';
import { formatNumber, markdownTable } from './table.js';

export interface ClientValidationOptions {
  rows: number;
  rounds: number;
  callsPerRound: number;
}

export const defaultClientValidationOptions: ClientValidationOptions = { rows: 50, rounds: 15, callsPerRound: 1000 };

const statuses: readonly Invoice['status'][] = ['draft', 'sent', 'paid', 'overdue', 'cancelled'];

/** A search answer of `rows` invoices that matches the strict spec (the validators accept it). */
export function searchAnswer(rows: number): InvoiceSearchResult {
  const data: Invoice[] = Array.from({ length: rows }, (_, index) => {
    const id = index + 1;
    const day = String((index % 28) + 1).padStart(2, '0');
    return {
      id,
      invoice_number: `INV-${String(id).padStart(6, '0')}`,
      client_id: (index % 7) + 1,
      client_name: `Client ${(index % 7) + 1} AG`,
      amount: Math.round((id * 137.31) % 100_000) + (id % 100) / 100,
      currency: 'CHF',
      status: statuses[index % statuses.length] ?? 'draft',
      due_date: `2026-12-${day}`,
      description: `Consulting, month ${(index % 12) + 1}`,
      created_at: `2026-11-${day}T08:30:00.000Z`,
      updated_at: `2026-11-${day}T09:45:12.345Z`,
    };
  });
  return { data, pagination: { total: 1_000_000, limit: rows, offset: 0, has_more: true } };
}

/** Microseconds per call of `calls` sequential searches through `api`. */
async function timeCalls(api: ReturnType<typeof createApiClient>, calls: number): Promise<number> {
  const started = performance.now();
  for (let call = 0; call < calls; call += 1) {
    const result = await api.searchInvoices({ limit: 50 });
    if (!result.ok) throw new Error(`the in-process answer came back as ${result.status}`);
  }
  return ((performance.now() - started) * 1000) / calls;
}

export interface ClientValidationFigures {
  /** Microseconds per answer, one sample per round. */
  on: number[];
  off: number[];
  bodyBytes: number;
}

export async function measureClientValidation(options: ClientValidationOptions = defaultClientValidationOptions): Promise<ClientValidationFigures> {
  const text = JSON.stringify(searchAnswer(options.rows));
  const fetch = async () => new Response(text, { status: 200, headers: { 'Content-Type': 'application/json' } });
  const common = { baseUrl: 'http://bench.invalid', token: 'bench', fetch, retry: false as const, timeout: false as const };
  const validating = createApiClient({ ...common, validateResponses: true });
  const plain = createApiClient({ ...common });
  // Warm-up: loads the validators, and lets the JIT compile both paths before anything is counted.
  await timeCalls(validating, options.callsPerRound);
  await timeCalls(plain, options.callsPerRound);
  const figures: ClientValidationFigures = { on: [], off: [], bodyBytes: new TextEncoder().encode(text).length };
  for (let round = 0; round < options.rounds; round += 1) {
    figures.on.push(await timeCalls(validating, options.callsPerRound));
    figures.off.push(await timeCalls(plain, options.callsPerRound));
  }
  return figures;
}

const range = (samples: readonly number[]) => `${formatNumber(Math.min(...samples))} – ${formatNumber(Math.max(...samples))}`;

export function renderClientValidation(figures: ClientValidationFigures, options: ClientValidationOptions = defaultClientValidationOptions): string {
  const on = percentile(figures.on, 50);
  const off = percentile(figures.off, 50);
  const differences = figures.on.map((value, index) => value - (figures.off[index] ?? Number.NaN));
  return [
    `## Client: validateResponses on a ${options.rows}-row search answer (${formatNumber(figures.bodyBytes / 1024)} KiB)`,
    '',
    `${options.rounds} interleaved rounds of ${options.callsPerRound} calls each, in-process fetch; microseconds per answer.`,
    '',
    markdownTable(
      ['validateResponses', 'median µs/answer', 'range over rounds'],
      [
        ['off', formatNumber(off), range(figures.off)],
        ['on', formatNumber(on), range(figures.on)],
        ['cost of the check (on − off, same round)', formatNumber(percentile(differences, 50)), range(differences)],
      ],
    ),
  ].join('\n');
}

export async function clientValidationReport(options: ClientValidationOptions = defaultClientValidationOptions): Promise<string> {
  return renderClientValidation(await measureClientValidation(options), options);
}
