// A parsed search (request.ts) as parameterised SQL: every value is a bound parameter, every column
// name comes from the allow-list, and every query is confined to the caller's account.
import { createHash } from 'node:crypto';
import { searchRules, type Invoice, type Pagination, type ParsedCriterion, type SearchValue, type ValueType } from '@invoice-api/contract';
import {
  sql,
  type AliasedSelectQueryBuilder,
  type CompiledQuery,
  type ExpressionBuilder,
  type Expression,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from '../db/database.js';
import { invoiceColumns, toInvoice } from '../db/mappers.js';
import { compileOnly } from '../db/compile-only.js';
import { statementTemplate, TemplateCache, valuesOf, withPlaceholders, type StatementTemplate } from '../db/statement-template.js';
import type { DatabaseSchema } from '../db/schema.js';
import { decodeCursor, encodeCursor, searchDigest, type CursorBinding } from './cursor.js';
import type { ParsedSearch } from './request.js';
import { selectsWholeGroups, totalPlan } from './total-plan.js';

type InvoiceExpressions = ExpressionBuilder<DatabaseSchema, 'invoices'>;
type KeptCountExpressions = ExpressionBuilder<DatabaseSchema, 'invoice_counts'>;

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
function anyOf(expression: Expression<unknown>, values: unknown, type: string): Expression<SqlBool> {
  return sql<SqlBool>`${expression} = any(cast(${values} as ${sql.raw(type)}[]))`;
}

/** md5 as PostgreSQL's md5(text) computes it: hex of the UTF-8 bytes. */
function md5Hex(text: SearchValue): string {
  return createHash('md5').update(String(text), 'utf8').digest('hex');
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

/**
 * Everything of a search that becomes a bound parameter, apart from the statement's shape (which
 * fields, operators and order; whether it continues a cursor). The statements are built from this
 * once per shape with placeholders (statement-template.ts), and bound with each request's values.
 */
interface SearchValues {
  accountId: unknown;
  criteria: CriterionValues[];
  cursor: { sortValue: unknown; id: unknown; invoicesVersion: unknown; total: unknown } | undefined;
  limit: unknown;
  offset: unknown;
}

/**
 * One criterion's parameters: its value, pattern or array first, the upper bound of `between` second;
 * and, for an equality or `in` on description, the md5 digests it is also compared by.
 */
interface CriterionValues {
  field: ParsedCriterion['field'];
  operator: ParsedCriterion['operator'];
  values: unknown[];
  digests: unknown;
}

/** Visits every value of a search in one fixed order: the order of the list a template is bound with. */
function mapSearchValues(search: SearchValues, each: (value: unknown) => unknown): SearchValues {
  return {
    accountId: each(search.accountId),
    criteria: search.criteria.map(({ field, operator, values, digests }) => ({
      field,
      operator,
      values: values.map(each),
      digests: digests === undefined ? undefined : each(digests),
    })),
    cursor:
      search.cursor === undefined
        ? undefined
        : {
            sortValue: each(search.cursor.sortValue),
            id: each(search.cursor.id),
            invoicesVersion: each(search.cursor.invoicesVersion),
            total: each(search.cursor.total),
          },
    limit: each(search.limit),
    offset: each(search.offset),
  };
}

/**
 * description is indexed by its md5 digest (migration 0003: long texts do not fit a b-tree), so an
 * equality on it also compares digests, which that index can serve; the value comparison stays exact.
 * The digests of the values are computed here, so the SQL calls md5() once per row it reads, never
 * once per value. `like` is a substring: its pattern is the escaped value between wildcards.
 */
function criterionValues(criterion: ParsedCriterion): CriterionValues {
  const { field, operator } = criterion;
  switch (criterion.operator) {
    case 'like':
      return { field, operator, values: [`%${escapeLike(criterion.value)}%`], digests: undefined };
    case 'in':
      return { field, operator, values: [criterion.value], digests: field === 'description' ? criterion.value.map(md5Hex) : undefined };
    case 'between':
      return { field, operator, values: [criterion.value[0], criterion.value[1]], digests: undefined };
    default:
      return { field, operator, values: [criterion.value], digests: field === 'description' && operator === '=' ? md5Hex(criterion.value) : undefined };
  }
}

/**
 * A bound parameter, typed as its place in the statement takes it: while a template is built the value
 * is a placeholder object (statement-template.ts), so the type is the statement's, not the value's.
 */
function parameter<T>(value: unknown) {
  return sql<T>`${value}`;
}

function criterionExpression(eb: InvoiceExpressions, accountId: unknown, criterion: CriterionValues): Expression<SqlBool> {
  const exact = valueMatch(eb, criterion);
  const { digests } = criterion;
  if (digests === undefined) return exact;
  const digest = sql<string>`md5(${eb.ref('description')})`;
  const digestMatch =
    criterion.operator === 'in' ? sql<SqlBool>`${digest} = any(${digestsPresent(accountId, digests)})` : eb(digest, '=', parameter<string>(digests));
  return eb.and([digestMatch, exact]);
}

/**
 * The digests of an `in` list that some invoice of the account has, found by one probe of the digest
 * index per listed value, in the statement's own snapshot. Descriptions repeat (a few hundred distinct
 * texts over a million invoices), so PostgreSQL estimates every listed value it does not know to match
 * thousands of rows, 1,000 made-up values the whole account, and would read all of it, computing md5
 * of every row, to find nothing. The probes cost about as much whatever the account's size; the
 * planner does not know the resulting array's length and reads its matches through the same index.
 */
function digestsPresent(accountId: unknown, digests: unknown) {
  return sql<string[]>`array(
    select listed.digest from unnest(cast(${digests} as text[])) as listed(digest)
    where exists (select 1 from invoices as present where present.account_id = ${accountId} and md5(present.description) = listed.digest))`;
}

function valueMatch(eb: InvoiceExpressions, criterion: CriterionValues): Expression<SqlBool> {
  const column = eb.ref(criterion.field);
  const [value, second] = criterion.values;
  switch (criterion.operator) {
    case 'like':
      // ILIKE under "C.utf8" folds case beyond ASCII and is the expression the trigram indexes are
      // built on (migration 0002), so they serve it; '\' is LIKE's default escape character.
      return eb(sql<string>`${column} collate "C.utf8"`, 'ilike', parameter<string>(value));
    case 'in':
      return anyOf(column, value, arrayElementType[searchRules.fields[criterion.field].type]);
    case 'between':
      return eb.between(column, parameter<SearchValue>(value), parameter<SearchValue>(second));
    case '!=':
      return eb(column, '<>', parameter<SearchValue>(value));
    default:
      return eb(column, criterion.operator, parameter<SearchValue>(value));
  }
}

export interface SearchPage {
  data: Invoice[];
  pagination: Pagination;
}

/** How a search's statements are built: everything but the values. */
interface SearchShape {
  orderBy: ParsedSearch['orderBy'];
  direction: ParsedSearch['direction'];
}

/**
 * Rows after the cursor in the page's order: the row comparison (sort value, id) > (cursor's) ascending,
 * < descending. PostgreSQL reads it as a range of the (account_id, <sort>, id) index, so the page
 * starts where the cursor points instead of walking every row before it.
 */
function afterCursor(eb: InvoiceExpressions, shape: SearchShape, cursor: NonNullable<SearchValues['cursor']>): Expression<SqlBool> {
  const comparison = shape.direction === 'asc' ? '>' : '<';
  if (shape.orderBy === 'id') return eb('id', comparison, parameter<number>(cursor.id));
  return eb(eb.refTuple(shape.orderBy, 'id'), comparison, eb.tuple(parameter<SearchValue>(cursor.sortValue), parameter<number>(cursor.id)));
}

export type MatchingInvoices = SelectQueryBuilder<DatabaseSchema, 'invoices', object>;

/**
 * The account's invoices_version, read with a total in one statement and so in one snapshot: the
 * version vouches for that very total. The triggers of migration 0006 bump the version in every
 * transaction that writes the account's invoices, so an unchanged version means an unchanged result.
 * An account without a row (no invoices can name it) reads as version 0.
 */
function currentVersionOf(db: Kysely<DatabaseSchema>, values: SearchValues) {
  return sql<number>`coalesce((${db.selectFrom('accounts').select('invoices_version').where('id', '=', parameter<number>(values.accountId))}), 0)`;
}

/** A criterion on status or currency as a condition on the kept counts' column of the same name. */
function keptCountMatch(eb: KeptCountExpressions, criterion: CriterionValues): Expression<SqlBool> {
  if (!selectsWholeGroups(criterion)) throw new Error(`A sum of kept counts cannot answer ${criterion.field} ${criterion.operator}; total-plan.ts counts it.`);
  const column = eb.ref(criterion.field);
  const [value] = criterion.values;
  switch (criterion.operator) {
    case 'in':
      return anyOf(column, value, arrayElementType[searchRules.fields[criterion.field].type]);
    case '!=':
      return eb(column, '<>', parameter<string>(value));
    case '=':
      return eb(column, '=', parameter<string>(value));
  }
}

/**
 * The exact total as the sum of the account's invoice counts (migration 0007) of the groups the
 * criteria select: a few rows read, whatever the number of invoices. The counts are written in the
 * transaction of every invoice write, so in one snapshot they equal a count of the invoices, and the
 * version read beside them vouches for them as it does for a count. On every page, by cursor too: the
 * sum is as cheap as comparing the cursor's version, so the total a cursor carries is never needed.
 */
function keptCountsTotalQuery(db: Kysely<DatabaseSchema>, values: SearchValues) {
  return keptCountsSum(db, values).select(currentVersionOf(db, values).as('version'));
}

/** The sum of the kept counts of the groups the criteria select (keptCountsTotalQuery). */
function keptCountsSum(db: Kysely<DatabaseSchema>, values: SearchValues) {
  return db
    .selectFrom('invoice_counts')
    .where('account_id', '=', parameter<number>(values.accountId))
    .where((eb) => eb.and(values.criteria.map((criterion) => keptCountMatch(eb, criterion))))
    .select(sql<number>`cast(coalesce(sum(invoices), 0) as bigint)`.as('total'));
}

/** The exact total counted, with the account's invoices_version (see currentVersionOf). */
function countedTotalQuery(db: Kysely<DatabaseSchema>, values: SearchValues, matching: MatchingInvoices) {
  const currentVersion = currentVersionOf(db, values);
  const { cursor } = values;
  if (cursor === undefined) {
    // A first page (or one by offset) counts, as it always did.
    return matching.select((eb) => [eb.fn.countAll<number>().as('total'), currentVersion.as('version')]);
  }
  // By cursor, the count is an uncorrelated scalar subquery in the CASE's else branch: PostgreSQL runs
  // such an InitPlan only when the branch is first evaluated, so while the version equals the cursor's
  // the whole result is not counted again, and the cursor's total is exact.
  const count = matching.select((eb) => eb.fn.countAll<number>().as('total'));
  return db
    .selectFrom(db.selectNoFrom(currentVersion.as('version')).as('current'))
    .select((eb) => [
      'current.version',
      eb
        .case()
        .when('current.version', '=', parameter<number>(cursor.invoicesVersion))
        .then(sql<number>`cast(${cursor.total} as bigint)`)
        .else(count)
        .end()
        .$castTo<number>()
        .as('total'),
    ]);
}

/**
 * The exact total as one value, for the page's own statement: the subquery of the total statement
 * (keptCountsTotalQuery, countedTotalQuery) as an uncorrelated scalar subquery, which PostgreSQL runs
 * once, as an InitPlan, when the first row is produced. By cursor, the count is again in a CASE's else
 * branch and runs only when the account's invoices_version differs from the cursor's.
 */
function totalValueOf(db: Kysely<DatabaseSchema>, values: SearchValues, matching: MatchingInvoices) {
  if (totalPlan(values.criteria) === 'sum of kept counts') return sql<number>`${keptCountsSum(db, values)}`;
  const count = matching.select((eb) => eb.fn.countAll<number>().as('total'));
  const { cursor } = values;
  if (cursor === undefined) return sql<number>`${count}`;
  return sql<number>`case when ${currentVersionOf(db, values)} = ${parameter<number>(cursor.invoicesVersion)} then cast(${cursor.total} as bigint) else ${count} end`;
}

/** The account's invoices that meet every criterion: what a search pages through and an export reads whole. */
function matchingInvoices(db: Kysely<DatabaseSchema>, values: SearchValues) {
  return db
    .selectFrom('invoices')
    .where('account_id', '=', parameter<number>(values.accountId))
    .where((eb) => eb.and(values.criteria.map((criterion) => criterionExpression(eb, values.accountId, criterion))));
}

/** The statements of one search shape, built from `values` (placeholders, once per shape). */
function buildSearchStatements(db: Kysely<DatabaseSchema>, shape: SearchShape, values: SearchValues) {
  const { cursor } = values;
  const matching = matchingInvoices(db, values);
  const inPage = cursor === undefined ? matching : matching.where((eb) => afterCursor(eb, shape, cursor));
  const limit = parameter<number>(values.limit);
  const offset = parameter<number>(values.offset);
  // Near the start of the result (a first page, every page by cursor, the next few by offset): the
  // page's rows in one scan, the plan a hand-written query gets. The sort index is walked for `offset
  // + limit` entries and each row is read from the heap once.
  const directPage = inPage.select(invoiceColumns).orderBy(shape.orderBy, shape.direction).orderBy('id', shape.direction).limit(limit).offset(offset);
  // Deep by offset: a deferred join, the page's ids first, then their rows. Skipping `offset` rows
  // costs only index entries when just the id is asked for (an index-only walk of (account_id, <sort>,
  // id), migration 0001), where selecting whole rows fetches every skipped row from the heap; each of
  // the page's rows is then found again through the primary key (3 to 4 buffers a row, and a sort of
  // the page). One statement either way, so it stays one round trip and the bench's SQL capture
  // (packages/bench/src/service-sql.ts) sees it.
  const pageIds = inPage
    .select('id')
    .orderBy(shape.orderBy, shape.direction)
    // id breaks ties in the same direction, so pages never overlap or skip rows.
    .orderBy('id', shape.direction)
    .limit(limit)
    .offset(offset);
  // The same page when few rows match: every match first (a materialized CTE the planner cannot look
  // through), sorted afterwards. An `in` list of values the planner does not know as common ones (an
  // attacker's 1,000 made-up descriptions or currencies) is estimated to match most of a column with few
  // distinct values, and the planner then walks the whole sort index, row by row, for 50 matches that
  // do not exist; the filter's own index finds the few matches at once.
  const fewMatchesIds = db
    .with(
      (cte) => cte('matches').materialized(),
      () => inPage.select(shape.orderBy === 'id' ? ['id'] : ['id', shape.orderBy]),
    )
    .selectFrom('matches')
    .select('id')
    .orderBy(shape.orderBy, shape.direction)
    .orderBy('id', shape.direction)
    .limit(limit)
    .offset(offset);
  // Typed by what the subquery yields (ids), not as the union of the two builders: the union's join
  // signatures stop being compatible once the schema has a few more tables.
  const rowsOf = (ids: AliasedSelectQueryBuilder<{ id: number }, 'page'>) =>
    db
      .selectFrom(ids)
      .innerJoin('invoices', 'invoices.id', 'page.id')
      // Redundant with the ids' own filter, and kept so that every read of invoices names the account.
      .where('invoices.account_id', '=', parameter<number>(values.accountId))
      .select(invoiceColumns.map((column) => `invoices.${column}` as const))
      // A join does not keep the subquery's order: sort the page's rows again by the same total order.
      .orderBy(`invoices.${shape.orderBy}`, shape.direction)
      .orderBy('invoices.id', shape.direction);
  const total = totalPlan(values.criteria) === 'sum of kept counts' ? keptCountsTotalQuery(db, values) : countedTotalQuery(db, values, matching);
  // The page with its total and the account's invoices_version as two more columns of every row: one
  // statement, so one round trip, one snapshot for the page and its total, and one statement's
  // overhead in the database (parse, plan, executor start) where page and total were two.
  const totalColumns = [totalValueOf(db, values, matching).as('total'), currentVersionOf(db, values).as('version')] as const;
  return {
    directPage,
    page: rowsOf(pageIds.as('page')),
    directPageAndTotal: directPage.select(totalColumns),
    pageAndTotal: rowsOf(pageIds.as('page')).select(totalColumns),
    fewMatchesPage: rowsOf(fewMatchesIds.as('page')),
    total,
  };
}

type BuiltStatements = ReturnType<typeof buildSearchStatements>;
type RowOf<Query> = Query extends { compile(): CompiledQuery<infer Row> } ? Row : never;

interface SearchTemplates {
  directPage: StatementTemplate<RowOf<BuiltStatements['directPage']>>;
  page: StatementTemplate<RowOf<BuiltStatements['page']>>;
  directPageAndTotal: StatementTemplate<RowOf<BuiltStatements['directPageAndTotal']>>;
  pageAndTotal: StatementTemplate<RowOf<BuiltStatements['pageAndTotal']>>;
  fewMatchesPage: StatementTemplate<RowOf<BuiltStatements['fewMatchesPage']>>;
  total: StatementTemplate<RowOf<BuiltStatements['total']>>;
}

/** Shapes compiled so far, for the process (compile-only.ts: both engines run the same compiled text). */
const templateCache = new TemplateCache<SearchTemplates>(500);

/** What a statement's SQL text depends on: order, first page or by cursor, and which criteria (not their values). */
function shapeKey(shape: SearchShape, values: SearchValues): string {
  // Fields and operators are allow-listed names (criteria.ts): they cannot be confused with the separators.
  return `${shape.orderBy} ${shape.direction} ${values.cursor === undefined ? 'first' : 'cursor'} ${values.criteria.map((criterion) => `${criterion.field} ${criterion.operator}`).join(',')}`;
}

/**
 * Operators whose matches PostgreSQL estimates from the value itself (a pattern's trigrams, a range's
 * share of the histogram): a plan made without the value may be far from the one made with it.
 */
const valueSensitiveOperators: ReadonlySet<string> = new Set(['like', 'between', '<', '<=', '>', '>=']);

/** Whether the criteria's statements are planned for their values every time (prepared-statements.ts's customPlanMarker). */
function plannedPerValue(criteria: SearchValues['criteria']): boolean {
  return criteria.some((criterion) => valueSensitiveOperators.has(criterion.operator));
}

function templatesFor(shape: SearchShape, values: SearchValues): SearchTemplates {
  return templateCache.get(shapeKey(shape, values), () => {
    const built = buildSearchStatements(compileOnly, shape, withPlaceholders(mapSearchValues, values));
    const valueCount = valuesOf(mapSearchValues, values).length;
    const byCriteria = { customPlan: plannedPerValue(values.criteria) };
    // The deferred join serves deep offsets only, whose best plan depends on how deep.
    const deep = { customPlan: true };
    return {
      directPage: statementTemplate(built.directPage, valueCount, byCriteria),
      page: statementTemplate(built.page, valueCount, deep),
      directPageAndTotal: statementTemplate(built.directPageAndTotal, valueCount, byCriteria),
      pageAndTotal: statementTemplate(built.pageAndTotal, valueCount, deep),
      fewMatchesPage: statementTemplate(built.fewMatchesPage, valueCount, byCriteria),
      total: statementTemplate(built.total, valueCount, byCriteria),
    };
  });
}

/**
 * The deepest offset whose page is read in one scan (directPage) rather than by a deferred join: two
 * pages. A row of the page costs the deferred join 3 to 4 buffers (the primary key's levels and the
 * heap) and the one scan 1 (the heap); a skipped row costs the deferred join an index entry and the
 * one scan at most a heap page (none on the page of a row before it). Where matching rows lie on pages
 * of their own (one client's invoices), the one scan reads `offset + limit` heap pages against the
 * deferred join's 3 to 4 x `limit`: at most 2 x `limit` skipped rows keeps the one scan the cheaper
 * even on the smaller primary key of 100,000 invoices.
 */
export function directPageOffsetLimit(limit: number): number {
  return 2 * limit;
}

/**
 * The statements of a search, compiled and bound when asked for: its page (in one scan near the start
 * of the result, by a deferred join deeper), the page with its total and the account's
 * invoices_version as columns of every row, the page of few matches, and the total with the version
 * alone (by the plan of total-plan.ts). Apart from running them so that a test can EXPLAIN the very
 * statements the service runs.
 */
export function searchStatements(accountId: number, search: ParsedSearch) {
  const binding: CursorBinding = { accountId, orderBy: search.orderBy, direction: search.direction, criteria: search.criteria };
  const cursor = search.cursor === undefined ? undefined : decodeCursor(search.cursor, binding);
  const criteria = mergeInCriteria(search.criteria);
  const values: SearchValues = {
    accountId,
    criteria: criteria.map(criterionValues),
    cursor: cursor === undefined ? undefined : { sortValue: cursor.sortValue, id: cursor.id, invoicesVersion: cursor.invoicesVersion, total: cursor.total },
    // By cursor, one row more than the page says whether another follows it; the cursor is the position.
    limit: cursor === undefined ? search.limit : search.limit + 1,
    offset: cursor === undefined ? search.offset : 0,
  };
  const templates = templatesFor({ orderBy: search.orderBy, direction: search.direction }, values);
  const bound = valuesOf(mapSearchValues, values);
  const hasInList = criteria.some((criterion) => criterion.operator === 'in');
  const direct = (values.offset as number) <= directPageOffsetLimit(values.limit as number);
  return {
    binding,
    cursor,
    hasInList,
    totalPlan: totalPlan(criteria),
    get page() {
      return (direct ? templates.directPage : templates.page).bind(bound);
    },
    get pageAndTotal() {
      return (direct ? templates.directPageAndTotal : templates.pageAndTotal).bind(bound);
    },
    get fewMatchesPage() {
      return templates.fewMatchesPage.bind(bound);
    },
    get total() {
      return templates.total.bind(bound);
    },
  };
}

/** Below this many matches a page is read from all matches, sorted (fewMatchesPage): a sort of that many rows is cheap. */
const fewMatchesLimit = 10_000;

type SearchStatements = ReturnType<typeof searchStatements>;

async function totalOf(database: Database, statements: SearchStatements) {
  const [counted] = (await database.db.executeQuery(statements.total)).rows;
  // One aggregate row, always: anything else is a broken statement, not an empty result.
  if (counted === undefined) throw new Error('The search total statement returned no row.');
  return counted;
}

/**
 * With an `in` list the total comes first, and tells which plan the page needs: none when nothing
 * matches, every match sorted when few do, the sort index's walk otherwise. One round trip more than
 * running both at once, for searches whose `in` lists can otherwise cost a walk of the whole account.
 */
async function pageAfterTotal(database: Database, statements: SearchStatements) {
  const counted = await totalOf(database, statements);
  if (counted.total === 0) return [[], counted] as const;
  // A total the cursor carried (its version still current) was not counted here, and a cursor's
  // checksum is no signature: a forged small total must not buy a sort of a large result. A sum of
  // kept counts never comes from the cursor.
  const countedHere = statements.totalPlan === 'sum of kept counts' || statements.cursor === undefined || counted.version !== statements.cursor.invoicesVersion;
  const fewMatches = countedHere && counted.total <= fewMatchesLimit;
  const { rows } = await database.db.executeQuery(fewMatches ? statements.fewMatchesPage : statements.page);
  return [rows, counted] as const;
}

/**
 * The page and its total from one statement (pageAndTotal). Its total and version are InitPlans, run
 * when the first row is produced: a page without rows (an offset past the end, nothing matching)
 * produces none and so answers no total, which the total statement then reads alone.
 */
async function pageWithTotal(database: Database, statements: SearchStatements) {
  const { rows } = await database.db.executeQuery(statements.pageAndTotal);
  const first = rows[0];
  if (first === undefined) return [rows, await totalOf(database, statements)] as const;
  return [rows, { total: first.total, version: first.version }] as const;
}

/**
 * One page of the account's invoices matching every criterion (AND), with the exact total: a sum of
 * kept counts when the criteria select whole (status, currency) groups (total-plan.ts); otherwise
 * counted on a first page, and on a page by cursor only when the account's invoices changed since.
 */
export async function searchInvoices(database: Database, accountId: number, search: ParsedSearch): Promise<SearchPage> {
  const statements = searchStatements(accountId, search);
  const { binding, cursor } = statements;
  const [rows, counted] = await (statements.hasInList ? pageAfterTotal(database, statements) : pageWithTotal(database, statements));
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

/** Where a batch of a keyset read ended: its last row's sort value (as the database's text of it) and id. */
export interface KeysetPosition {
  sortValue: string;
  id: string;
}

/** The order and criteria of a search, without its page: what an export reads. */
export type SearchOrder = Pick<ParsedSearch, 'orderBy' | 'direction' | 'criteria'>;

/**
 * Statements that read every invoice a search's criteria match, in its order, `limit` rows at a time:
 * the search's own filter (matchingInvoices), and after the first batch its cursor's keyset condition
 * (afterCursor), so each batch starts where the last one ended on the (account_id, <sort>, id) index
 * and costs the same however deep it is. `select` adds the columns (the export's are text). Ordered by
 * the table's columns by name, so an output column of the same name (an amount as text) does not
 * become the sort key. Compiled once per shape, like the search's.
 */
export function keysetBatchReader<Row>(select: (matching: MatchingInvoices) => SelectQueryBuilder<DatabaseSchema, 'invoices', Row>) {
  const templates = new TemplateCache<StatementTemplate<Row>>(500);
  const build = (shape: SearchShape, values: SearchValues) => {
    const matching = matchingInvoices(compileOnly, values);
    const { cursor } = values;
    const batch = cursor === undefined ? matching : matching.where((eb) => afterCursor(eb, shape, cursor));
    return select(batch).orderBy(`invoices.${shape.orderBy}`, shape.direction).orderBy('invoices.id', shape.direction).limit(parameter<number>(values.limit));
  };
  return (accountId: number, search: SearchOrder, after: KeysetPosition | undefined, limit: number): CompiledQuery<Row> => {
    const values: SearchValues = {
      accountId,
      criteria: mergeInCriteria(search.criteria).map(criterionValues),
      // A batch has no total: the cursor's version and total are never part of its statement.
      cursor: after === undefined ? undefined : { sortValue: after.sortValue, id: after.id, invoicesVersion: undefined, total: undefined },
      limit,
      offset: 0,
    };
    const shape: SearchShape = { orderBy: search.orderBy, direction: search.direction };
    const template = templates.get(shapeKey(shape, values), () =>
      statementTemplate(build(shape, withPlaceholders(mapSearchValues, values)), valuesOf(mapSearchValues, values).length, {
        customPlan: plannedPerValue(values.criteria),
      }),
    );
    return template.bind(valuesOf(mapSearchValues, values));
  };
}
