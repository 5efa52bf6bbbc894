// A search request body as the two parameterised statements a search costs: the page and the exact
// count. The raw SQL runner and the bare node:http handler run these, so that their figures are the
// limits of the database and of Node for the very query the service runs. It follows the service's
// rules (AND of criteria, literal case-insensitive `like`, ties broken by id in the same direction)
// for the bodies the benchmark sends; it is not a second validator.
import { searchRules, type InvoiceSearchRequest, type SearchCriterion } from '@invoice-api/contract';

export interface Statement {
  text: string;
  values: unknown[];
}

export interface SearchStatements {
  page: Statement;
  count: Statement;
  limit: number;
  offset: number;
}

/** The invoice columns the API returns, in the Invoice schema's order. */
export const invoiceColumns = 'id, invoice_number, client_id, client_name, amount, currency, status, due_date, created_at, updated_at, description';

const comparison: Readonly<Record<string, string>> = { '=': '=', '!=': '<>', '>': '>', '<': '<', '>=': '>=', '<=': '<=' };

/** `%`, `_` and the escape character itself lose their pattern meaning: `like` is a literal substring. */
function literalPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function columnCast(field: string): string {
  const type = (searchRules.fields as Record<string, { type: string }>)[field]?.type;
  if (type === 'integer') return '::bigint';
  if (type === 'number') return '::numeric';
  if (type === 'date') return '::date';
  if (type === 'date-time') return '::timestamptz';
  return '::text';
}

function criterionSql(criterion: SearchCriterion, values: unknown[]): string {
  const column = criterion.field;
  if (!(column in searchRules.fields)) throw new Error(`Unknown field ${column}`);
  const cast = columnCast(column);
  const parameter = (value: unknown): string => {
    values.push(value);
    return `$${values.length}${cast}`;
  };
  const value: unknown = criterion.value;
  switch (criterion.operator) {
    case 'like':
      values.push(literalPattern(String(value)));
      return `${column} ilike $${values.length}`;
    case 'in':
      values.push(value);
      return `${column} = any($${values.length}${cast}[])`;
    case 'between': {
      const [low, high] = value as [unknown, unknown];
      return `${column} between ${parameter(low)} and ${parameter(high)}`;
    }
    default: {
      const operator = comparison[criterion.operator];
      if (operator === undefined) throw new Error(`Unknown operator ${criterion.operator}`);
      return `${column} ${operator} ${parameter(value)}`;
    }
  }
}

export function searchStatements(accountId: number, body: InvoiceSearchRequest): SearchStatements {
  const limit = body.limit ?? searchRules.defaults.limit;
  const offset = body.offset ?? searchRules.defaults.offset;
  const orderBy = body.order_by ?? searchRules.defaults.order_by;
  const direction = (body.order_direction ?? searchRules.defaults.order_direction) === 'asc' ? 'asc' : 'desc';
  if (!(searchRules.sortFields as readonly string[]).includes(orderBy)) throw new Error(`Unknown sort field ${orderBy}`);
  const values: unknown[] = [accountId];
  const conditions = ['account_id = $1', ...(body.criteria ?? []).map((criterion) => criterionSql(criterion, values))];
  const where = conditions.join(' and ');
  const order = orderBy === 'id' ? `id ${direction}` : `${orderBy} ${direction}, id ${direction}`;
  return {
    page: {
      text: `select ${invoiceColumns} from invoices where ${where} order by ${order} limit $${values.length + 1} offset $${values.length + 2}`,
      values: [...values, limit, offset],
    },
    count: { text: `select count(*) as total from invoices where ${where}`, values },
    limit,
    offset,
  };
}

/** The naive plan for a deep page: OFFSET over the full rows, no deferred join. */
export function naiveDeepPage(accountId: number, offset: number): Statement {
  return {
    text: `select ${invoiceColumns} from invoices where account_id = $1 order by created_at desc, id desc limit 50 offset $2`,
    values: [accountId, offset],
  };
}
