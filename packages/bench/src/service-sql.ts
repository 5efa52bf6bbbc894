// The exact SQL the service runs for a search body, captured from the service's own query code
// (parseSearchRequest + searchInvoices) on a Kysely whose driver records instead of executing. The raw
// SQL loop and the bare handler run these statements, so their figures bound the very same queries.
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { InvoiceSearchRequest } from '@invoice-api/contract';
import { findInvoice, parseSearchRequest, searchInvoices, type Database, type DatabaseSchema } from './server-query-modules.js';

export interface Statement {
  text: string;
  values: unknown[];
}

export interface SearchStatements {
  /** The statement that answers the page's rows: with the total as two more columns, unless the total comes first. */
  page: Statement;
  /** The total (with the account's invoices_version) alone: what the service runs when the page has no row, or first. */
  count: Statement;
  /** True when `page` answers the total too (every row carries it): then the service sends only `page`. */
  pageCarriesTotal: boolean;
  limit: number;
  offset: number;
}

/** The statements the service sends for a search whose page has rows, in its order. */
export function searchRun(statements: SearchStatements): Statement[] {
  return statements.pageCarriesTotal ? [statements.page] : [statements.page, statements.count];
}

/** A Kysely that records every statement it is asked to run into `recorded`, and runs none. */
function recordingKysely(recorded: Statement[]): Kysely<never> {
  return new Kysely<never>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      recorded.push({ text: event.query.sql, values: [...event.query.parameters] });
    },
  });
}

export function serviceSearchStatements(accountId: number, body: InvoiceSearchRequest): Promise<SearchStatements> {
  const recorded: Statement[] = [];
  const recorder = recordingKysely(recorded);
  const database = { engine: 'postgres', db: recorder, ping: async () => true, close: async () => undefined } as unknown as Database;
  const search = parseSearchRequest(body);
  // The dummy driver returns no rows: the page (with its total) comes back empty, so the service then
  // reads the total alone, and that statement, answering no row either, throws. The throw is
  // expected; the recording of both is what we came for.
  return searchInvoices(database, accountId, search)
    .catch(() => undefined)
    .then(() => {
      const page = recorded.find((statement) => /\blimit\b/i.test(statement.text));
      // The total's statement: a count, or a sum of the kept invoice counts (search/total-plan.ts).
      const count = recorded.find((statement) => statement !== page && /\bas "total"/.test(statement.text));
      if (page === undefined || count === undefined) throw new Error(`Could not capture the service's search SQL (got ${recorded.length} statements)`);
      return { page, count, pageCarriesTotal: /\bas "total"/.test(page.text), limit: search.limit, offset: search.offset };
    });
}

/** The statement getInvoice runs for one invoice (findInvoice). */
export async function serviceGetInvoiceStatement(accountId: number, invoiceId: number): Promise<Statement> {
  const recorded: Statement[] = [];
  await findInvoice(recordingKysely(recorded) as unknown as Kysely<DatabaseSchema>, accountId, invoiceId).catch(() => undefined);
  const statement = recorded[0];
  if (statement === undefined) throw new Error("Could not capture getInvoice's SQL");
  return statement;
}
