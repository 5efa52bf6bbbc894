// The invoices of an account as CSV, read batch by batch (exportInvoices). Each batch is one short
// statement of its own, the next one starting after the last row of the one before (a keyset, the
// search's cursor condition), read at most one batch ahead of what the consumer has asked for: the
// answer is piped with back-pressure (http/answer-stream.ts), so a slow reader leaves further batches
// unread and holds no connection between statements (PGlite's one session is shared by every request;
// PostgreSQL's pool is small), and a reader that goes away ends the generator: the batch already
// being read is dropped and no other is read.
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { invoiceColumns } from '../db/mappers.js';
import { keysetBatchReader, type KeysetPosition, type SearchOrder } from '../search/index.js';
import { csvRecord, csvTextField, formulaStartCharacters, quotedCharacters } from './csv.js';
import { Utf8Chunks } from './utf8-chunks.js';

/**
 * Rows per statement: a million rows are 200 round trips, and a batch's bytes stay under about a MiB
 * (a few with the longest descriptions), two batches held at most.
 */
export const exportBatchSize = 5_000;

/** The header line: the invoice's properties in the order the spec gives them. */
export const invoiceCsvHeader = csvRecord([...invoiceColumns]);

/** A timestamp as the JSON answers write it (type-parsers.ts): UTC, milliseconds, `Z`. */
const timestampText = (column: 'created_at' | 'updated_at') =>
  sql<string>`to_char(${sql.ref(`invoices.${column}`)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `amount,currency,status,due_date,created_at,updated_at` as the CSV writes them: numbers, dates and
 * the spec's codes (the table's checks hold currency and status to their letters), which can hold no
 * comma, quote or line break and start no formula. The amount's numeric text keeps its two decimals
 * (no float in between); dates and timestamps are the JSON's text.
 */
const amountToUpdatedAt = sql<string>`cast(${sql.ref('invoices.amount')} as text) || ',' || ${sql.ref('invoices.currency')} || ',' || ${sql.ref('invoices.status')} || ',' || cast(${sql.ref('invoices.due_date')} as text) || ',' || ${timestampText('created_at')} || ',' || ${timestampText('updated_at')}`;

/** The three texts a user wrote, the only cells that can need a quote or a neutralising `'`. */
const userTexts = ['invoices.invoice_number', 'invoices.client_name', 'invoices.description'] as const;

/**
 * True when a user's text needs csv.ts's care: it starts like a formula, or holds a character that
 * needs quotes; csv.ts's own lists of both, written as SQL literals. Found with `left` and `strpos`,
 * which cost the database about what COPY's own quoting check does, where a regular expression per
 * cell doubled the statement's time.
 */
const characterLiteral = (character: string) => sql`chr(${sql.lit(character.charCodeAt(0))})`;
const needsCare = sql.join(
  userTexts.map(
    (column) =>
      sql`left(${sql.ref(column)}, 1) in (${sql.join(formulaStartCharacters.map(characterLiteral))}) or ${sql.join(
        quotedCharacters.map((character) => sql`strpos(${sql.ref(column)}, ${characterLiteral(character)}) > 0`),
        sql` or `,
      )}`,
  ),
  sql` or `,
);

/**
 * A batch's rows, one string each (`record`). An invoice whose texts need no care (nearly every one)
 * arrives as its finished CSV record, joined by the database: one string per row is all Node reads
 * and keeps, where a field per column made the rows the export's whole cost (parsing, then garbage
 * collection). Any other invoice arrives as its six parts in a JSON array of strings (it starts with
 * `[`, a record with its id's digits), and csv.ts neutralises and quotes its texts (invoiceCsvRecord).
 */
export const readExportBatch = keysetBatchReader((matching) =>
  matching.select(
    sql<string>`case when ${needsCare} then cast(json_build_array(cast(${sql.ref('invoices.id')} as text), ${sql.ref('invoices.invoice_number')}, cast(${sql.ref('invoices.client_id')} as text), ${sql.ref('invoices.client_name')}, ${amountToUpdatedAt}, ${sql.ref('invoices.description')}) as text) else cast(${sql.ref('invoices.id')} as text) || ',' || ${sql.ref('invoices.invoice_number')} || ',' || cast(${sql.ref('invoices.client_id')} as text) || ',' || ${sql.ref('invoices.client_name')} || ',' || ${amountToUpdatedAt} || ',' || ${sql.ref('invoices.description')} || chr(13) || chr(10) end`.as(
      'record',
    ),
  ),
);

/** A row of readExportBatch: a finished record, or an invoice's parts as a JSON array. */
export interface ExportRow {
  record: string;
}

/** An invoice's parts as the database sends them: id, invoice_number, client_id, client_name, `amount,...,updated_at`, description. */
export type ExportCells = readonly [string, string, string, string, string, string];

/** One invoice's record from its parts: the texts a user wrote neutralised and quoted (csv.ts), the rest as it is. */
export function invoiceCsvRecord([id, invoiceNumber, clientId, clientName, amountToUpdated, description]: ExportCells): string {
  return `${id},${csvTextField(invoiceNumber)},${clientId},${csvTextField(clientName)},${amountToUpdated},${csvTextField(description)}\r\n`;
}

/** `[`: the JSON array of an invoice whose texts need care; a finished record starts with a digit. */
const jsonArrayStart = 0x5b;
const isCells = (row: ExportRow): boolean => row.record.charCodeAt(0) === jsonArrayStart;
const cellsOf = (row: ExportRow): ExportCells => JSON.parse(row.record) as ExportCells;

/**
 * Where a batch ended, from its last row: the id and the sort field's value as the database wrote
 * them. A finished record holds no comma inside a field (that is what let the database finish it),
 * so splitting it gives the fields back; a JSON array holds the raw values.
 */
function keysetOf(row: ExportRow, orderBy: SearchOrder['orderBy']): KeysetPosition {
  let fields: string[];
  if (isCells(row)) {
    const [id, invoiceNumber, clientId, clientName, amountToUpdated, description] = cellsOf(row);
    fields = [id, invoiceNumber, clientId, clientName, ...amountToUpdated.split(','), description];
  } else fields = row.record.slice(0, -2).split(',');
  return { sortValue: fields[invoiceColumns.indexOf(orderBy)] as string, id: fields[0] as string };
}

/** A batch as the answer sends it: its records as UTF-8 chunks, and where the next batch starts. */
interface EncodedBatch {
  chunks: Buffer[];
  rowCount: number;
  /** The keyset after the batch's last row; undefined for an empty batch. */
  last: KeysetPosition | undefined;
}

export interface InvoiceCsvOptions {
  /** Rows per statement (exportBatchSize). */
  batchSize?: number;
}

/**
 * The CSV of every invoice of `accountId` the search's criteria match, in its order. The first batch
 * is read before this resolves, so a database that cannot answer fails the request with its proper
 * status while no header has gone out; the rest is read as the answer is consumed.
 */
export async function invoiceCsv(database: Database, accountId: number, search: SearchOrder, options: InvoiceCsvOptions = {}): Promise<AsyncGenerator<Buffer>> {
  const batchSize = options.batchSize ?? exportBatchSize;
  // Each row becomes bytes as it arrives and is dropped (Database.eachRow): rows kept until their
  // batch was read whole were promoted out of the young generation in bulk (db/each-row.ts).
  const read = async (after: KeysetPosition | undefined, header: string): Promise<EncodedBatch> => {
    const text = new Utf8Chunks();
    if (header !== '') text.add(header);
    let lastRow: ExportRow | undefined;
    const rowCount = await database.eachRow(readExportBatch(accountId, search, after, batchSize), (row) => {
      lastRow = row;
      text.add(isCells(lastRow) ? invoiceCsvRecord(cellsOf(lastRow)) : lastRow.record);
    });
    return { chunks: text.take(), rowCount, last: lastRow === undefined ? undefined : keysetOf(lastRow, search.orderBy) };
  };
  const first = await read(undefined, invoiceCsvHeader);
  async function* chunks(): AsyncGenerator<Buffer> {
    let batch = first;
    // A short batch is the last one: no statement is spent to learn that nothing follows.
    while (batch.rowCount === batchSize && batch.last !== undefined) {
      // One batch ahead: the database reads the next batch while this one is written, instead of the
      // two taking turns (the export's time was theirs added). Its statement ends on its own; if the
      // caller leaves meanwhile, its chunks are dropped and nothing after it is read.
      const next = read(batch.last, '');
      // Awaited below; a failure while this batch is written must not count as unhandled before then.
      next.catch(() => undefined);
      yield* batch.chunks;
      batch = await next;
    }
    yield* batch.chunks;
  }
  return chunks();
}
