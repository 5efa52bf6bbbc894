// A parsed search (request.ts) as parameterised SQL: every value is a bound parameter, every column
// name comes from the allow-list, and every query is confined to the caller's account.
import { createHash } from 'node:crypto';
import { searchRules, type Invoice, type Pagination } from '@invoice-api/contract';
import { sql, type ExpressionBuilder, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/database.js';
import { invoiceColumns, toInvoice } from '../db/mappers.js';
import type { DatabaseSchema } from '../db/schema.js';
import type { ParsedCriterion } from './criteria.js';
import type { SearchValue, ValueType } from './value-types.js';
import { decodeCursor, encodeCursor, searchDigest, type CursorBinding, type SearchCursor } from './cursor.js';
import type { ParsedSearch } from './request.js';

type InvoiceExpressions = ExpressionBuilder<DatabaseSchema, 'invoices'>;

/** `like` is a literal substring: LIKE's own wildcards and its escape character lose their meaning. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The PostgreSQL type of a field's values, for the one array parameter of an `in`. */
const arrayElementType: Readonly<Record<ValueType, string>> = {
  integer: 'bigint',
  number: 'numeric',
  date: 'date',
  'date-time': 'timestamptz',
  status: 'text',
  currency: 'text',
  string: 'text',
};

/**
 * `= any($1::<type>[])`: an `in` of 1,000 values is one array parameter, not 1,000 parameters, so the
 * statement stays short to build, send and parse whatever the list's length. The element type is a
 * constant of the table above, never input.
 */
function anyOf(expression: Expression<unknown>, values: readonly SearchValue[], type: string): Expression<SqlBool> {
  return sql<SqlBool>`${expression} = any(cast(${sql.val(values)} as ${sql.raw(type)}[]))`;
}

/** md5 as PostgreSQL's md5(text) computes it: hex of the UTF-8 bytes. */
function md5Hex(text: SearchValue): string {
  return createHash('md5').update(String(text), 'utf8').digest('hex');
}

/**
 * description is indexed by its md5 digest (migration 0003: long texts do not fit a b-tree), so an
 * equality on it also compares digests, which that index can serve; the value comparison stays exact.
 * The digests of the values are computed here, so the SQL calls md5() once per row it reads, never
 * once per value.
 */
function descriptionDigestMatch(eb: InvoiceExpressions, criterion: ParsedCriterion): Expression<SqlBool> | undefined {
  if (criterion.field !== 'description') return undefined;
  const digest = sql<string>`md5(${eb.ref('description')})`;
  if (criterion.operator === '=') return eb(digest, '=', md5Hex(criterion.value));
  if (criterion.operator === 'in') return anyOf(digest, criterion.value.map(md5Hex), 'text');
  return undefined;
}

/**
 * Criteria combine with AND, so several `in` on one field are one `in` of the values common to all of
 * them. Only seven fields take `in`, so however a search spreads its 20 lists, the statement compares
 * at most seven arrays: the planner estimates every element of every array it is given, and 20 arrays
 * of 1,000 cost it more than the query does. The merged criterion takes the place of the first, and
 * keeps each value once.
 */
export function mergeInCriteria(criteria: readonly ParsedCriterion[]): ParsedCriterion[] {
  const merged: ParsedCriterion[] = [];
  const inByField = new Map<string, { index: number; values: SearchValue[] }>();
  for (const criterion of criteria) {
    if (criterion.operator !== 'in') {
      merged.push(criterion);
      continue;
    }
    const earlier = inByField.get(criterion.field);
    if (earlier === undefined) {
      // A value named twice in one list is compared once: status takes 1,000 values but has 5.
      const values = [...new Set(criterion.value)];
      inByField.set(criterion.field, { index: merged.length, values });
      merged.push({ field: criterion.field, operator: 'in', value: values });
      continue;
    }
    const these = new Set(criterion.value);
    earlier.values = earlier.values.filter((value) => these.has(value));
    merged[earlier.index] = { field: criterion.field, operator: 'in', value: earlier.values };
  }
  return merged;
}

function criterionExpression(eb: InvoiceExpressions, criterion: ParsedCriterion): Expression<SqlBool> {
  const digestMatch = descriptionDigestMatch(eb, criterion);
  const exact = valueMatch(eb, criterion);
  return digestMatch === undefined ? exact : eb.and([digestMatch, exact]);
}

function valueMatch(eb: InvoiceExpressions, criterion: ParsedCriterion): Expression<SqlBool> {
  const column = eb.ref(criterion.field);
  switch (criterion.operator) {
    case 'like':
      // ILIKE under "C.utf8" folds case beyond ASCII and is the expression the trigram indexes are
      // built on (migration 0002), so they serve it; '\' is LIKE's default escape character.
      return eb(sql<string>`${column} collate "C.utf8"`, 'ilike', `%${escapeLike(criterion.value)}%`);
    case 'in':
      return anyOf(column, criterion.value, arrayElementType[searchRules.fields[criterion.field].type]);
    case 'between':
      return eb.between(column, criterion.value[0], criterion.value[1]);
    case '!=':
      return eb(column, '<>', criterion.value);
    default:
      return eb(column, criterion.operator, criterion.value);
  }
}

export interface SearchPage {
  data: Invoice[];
  pagination: Pagination;
}

/**
 * Rows after the cursor in the page's order: the row comparison (sort value, id) > (cursor's) ascending,
 * < descending. PostgreSQL reads it as a range of the (account_id, <sort>, id) index, so the page
 * starts where the cursor points instead of walking every row before it.
 */
function afterCursor(eb: InvoiceExpressions, search: ParsedSearch, cursor: SearchCursor): Expression<SqlBool> {
  const comparison = search.direction === 'asc' ? '>' : '<';
  if (search.orderBy === 'id') return eb('id', comparison, cursor.id);
  return eb(eb.refTuple(search.orderBy, 'id'), comparison, eb.tuple(cursor.sortValue, cursor.id));
}

type MatchingInvoices = SelectQueryBuilder<DatabaseSchema, 'invoices', object>;

/**
 * The exact total with the account's invoices_version, read in one statement and so in one snapshot:
 * the version vouches for that very total. The triggers of migration 0006 bump the version in every
 * transaction that writes the account's invoices, so an unchanged version means an unchanged result.
 * An account without a row (no invoices can name it) reads as version 0.
 */
function totalQuery(database: Database, accountId: number, matching: MatchingInvoices, cursor: SearchCursor | undefined) {
  const currentVersion = sql<number>`coalesce((${database.db.selectFrom('accounts').select('invoices_version').where('id', '=', accountId)}), 0)`;
  if (cursor === undefined) {
    // A first page (or one by offset) counts, as it always did.
    return matching.select((eb) => [eb.fn.countAll<number>().as('total'), currentVersion.as('version')]);
  }
  // By cursor, the count is an uncorrelated scalar subquery in the CASE's else branch: PostgreSQL runs
  // such an InitPlan only when the branch is first evaluated, so while the version equals the cursor's
  // the whole result is not counted again, and the cursor's total is exact.
  const count = matching.select((eb) => eb.fn.countAll<number>().as('total'));
  return database.db
    .selectFrom(database.db.selectNoFrom(currentVersion.as('version')).as('current'))
    .select((eb) => [
      'current.version',
      eb
        .case()
        .when('current.version', '=', cursor.invoicesVersion)
        .then(sql<number>`cast(${cursor.total} as bigint)`)
        .else(count)
        .end()
        .$castTo<number>()
        .as('total'),
    ]);
}

/**
 * The two statements of a search: its page, and its total with the account's invoices_version. Built
 * apart from running them so that a test can EXPLAIN the very statements the service runs.
 */
export function searchStatements(database: Database, accountId: number, search: ParsedSearch) {
  const binding: CursorBinding = { accountId, orderBy: search.orderBy, direction: search.direction, criteria: search.criteria };
  const cursor = search.cursor === undefined ? undefined : decodeCursor(search.cursor, binding);
  const criteria = mergeInCriteria(search.criteria);
  const matching = database.db
    .selectFrom('invoices')
    .where('account_id', '=', accountId)
    .where((eb) => eb.and(criteria.map((criterion) => criterionExpression(eb, criterion))));
  // Deferred join: the page's ids first, then their rows. Skipping `offset` rows costs only index
  // entries when just the id is asked for (an index-only walk of (account_id, <sort>, id), migration
  // 0001), where selecting whole rows fetches every skipped row from the heap. One statement, so it
  // stays one round trip and the bench's SQL capture (packages/bench/src/service-sql.ts) sees it.
  const inPage = cursor === undefined ? matching : matching.where((eb) => afterCursor(eb, search, cursor));
  const pageIds = inPage
    .select('id')
    .orderBy(search.orderBy, search.direction)
    // id breaks ties in the same direction, so pages never overlap or skip rows.
    .orderBy('id', search.direction)
    // By cursor, one row more than the page says whether another follows it.
    .limit(cursor === undefined ? search.limit : search.limit + 1)
    .offset(cursor === undefined ? search.offset : 0);
  // The same page when few rows match: every match first (a materialized CTE the planner cannot look
  // through), sorted afterwards. An `in` list of values the planner does not know as common ones (an
  // attacker's 1,000 made-up descriptions or currencies) is estimated to match most of a column with few
  // distinct values, and the planner then walks the whole sort index, row by row, for 50 matches that
  // do not exist; the filter's own index finds the few matches at once.
  const fewMatchesIds = database.db
    .with(
      (cte) => cte('matches').materialized(),
      () => inPage.select(search.orderBy === 'id' ? ['id'] : ['id', search.orderBy]),
    )
    .selectFrom('matches')
    .select('id')
    .orderBy(search.orderBy, search.direction)
    .orderBy('id', search.direction)
    .limit(cursor === undefined ? search.limit : search.limit + 1)
    .offset(cursor === undefined ? search.offset : 0);
  const rowsOf = (ids: typeof pageIds | typeof fewMatchesIds) =>
    database.db
      .selectFrom(ids.as('page'))
      .innerJoin('invoices', 'invoices.id', 'page.id')
      // Redundant with the ids' own filter, and kept so that every read of invoices names the account.
      .where('invoices.account_id', '=', accountId)
      .select(invoiceColumns.map((column) => `invoices.${column}` as const))
      // A join does not keep the subquery's order: sort the page's rows again by the same total order.
      .orderBy(`invoices.${search.orderBy}`, search.direction)
      .orderBy('invoices.id', search.direction);
  const page = rowsOf(pageIds);
  const fewMatchesPage = rowsOf(fewMatchesIds);
  const hasInList = criteria.some((criterion) => criterion.operator === 'in');
  return { binding, cursor, page, fewMatchesPage, hasInList, total: totalQuery(database, accountId, matching, cursor) };
}

/** Below this many matches a page is read from all matches, sorted (fewMatchesPage): a sort of that many rows is cheap. */
const fewMatchesLimit = 10_000;

type SearchStatements = ReturnType<typeof searchStatements>;

/**
 * With an `in` list the total comes first, and tells which plan the page needs: none when nothing
 * matches, every match sorted when few do, the sort index's walk otherwise. One round trip more than
 * running both at once, for searches whose `in` lists can otherwise cost a walk of the whole account.
 */
async function pageAfterTotal(statements: SearchStatements) {
  const counted = await statements.total.executeTakeFirstOrThrow();
  if (counted.total === 0) return [[], counted] as const;
  // A total the cursor carried (its version still current) was not counted here, and a cursor's
  // checksum is no signature: a forged small total must not buy a sort of a large result.
  const countedHere = statements.cursor === undefined || counted.version !== statements.cursor.invoicesVersion;
  const fewMatches = countedHere && counted.total <= fewMatchesLimit;
  const rows = await (fewMatches ? statements.fewMatchesPage : statements.page).execute();
  return [rows, counted] as const;
}

/**
 * One page of the account's invoices matching every criterion (AND), with the exact total: counted on
 * a first page, and on a page by cursor only when the account's invoices changed since the cursor.
 */
export async function searchInvoices(database: Database, accountId: number, search: ParsedSearch): Promise<SearchPage> {
  const statements = searchStatements(database, accountId, search);
  const { binding, cursor } = statements;
  const [rows, counted] = await (statements.hasInList
    ? pageAfterTotal(statements)
    : // Concurrent on PostgreSQL (two pool connections); PGlite queues them on its one session.
      Promise.all([statements.page.execute(), statements.total.executeTakeFirstOrThrow()]));
  const { total, version } = counted;
  const offset = cursor === undefined ? search.offset : cursor.position;
  const hasMore = cursor === undefined ? search.offset + rows.length < total : rows.length > search.limit;
  const data = (rows.length > search.limit ? rows.slice(0, search.limit) : rows).map(toInvoice);
  const last = data.at(-1);
  const pagination: Pagination = { total, limit: search.limit, offset, has_more: hasMore };
  if (hasMore && last !== undefined) {
    pagination.next_cursor = encodeCursor(
      { sortValue: last[search.orderBy], id: last.id, position: offset + data.length, total, invoicesVersion: version },
      searchDigest(binding),
    );
  }
  return { data, pagination };
}
