// The search cursor: where a page ended (the last row's sort value and id, and the position of the row
// after it), tied to the search it belongs to, and the exact total it was answered with together with
// the account's invoices_version read in the same statement as that total. Its text is
// `<payload>.<checksum>`, both base64url: the payload is the JSON array [version, sort value, id,
// position, total, invoices version, search digest]; the search digest hashes the account, order_by,
// order_direction and the normalised criteria, so a cursor sent with another search is recognised; the
// checksum hashes the payload, so a cursor altered by hand is.
// Neither is a secret: a cursor forged with a matching checksum can only name a position in the
// caller's own result, and its values are checked like any input before they become parameters. A
// forged total is answered only as long as the account's invoices_version equals the forged one, that
// is until the account's next invoice write, and only to the caller who forged it.
import { createHash } from 'node:crypto';
import { searchRules, valueTypes, type ParsedCriterion, type SearchValue, type SortField } from '@invoice-api/contract';
import { ApiError } from '../errors.js';

/** Bumped when the payload's layout changes: older cursors are then refused, not misread. */
const cursorVersion = 2;
/** 96 bits of checksum and 128 of search digest: accidental matches are out of reach. */
const checksumLength = 16;
const digestLength = 22;

export interface SearchCursor {
  /** The last row's value of the sort field, as the API shows it. */
  sortValue: SearchValue;
  /** The last row's id, the tie-breaker. */
  id: number;
  /** The position in the whole result of the row after the cursor (the next page's offset). */
  position: number;
  /** The exact total of the page that made the cursor. */
  total: number;
  /** The account's invoices_version in the snapshot that counted `total`: while it is unchanged, so is the total. */
  invoicesVersion: number;
}

/** What a cursor is tied to: the same account, order and criteria. */
export interface CursorBinding {
  accountId: number;
  orderBy: SortField;
  direction: 'asc' | 'desc';
  criteria: readonly ParsedCriterion[];
}

function base64urlDigest(text: string, length: number): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, length);
}

/** The search a cursor belongs to, as a short digest. Criteria are canonical after parsing (dates, timestamps). */
export function searchDigest(binding: CursorBinding): string {
  return base64urlDigest(JSON.stringify([binding.accountId, binding.orderBy, binding.direction, binding.criteria]), digestLength);
}

export function encodeCursor(cursor: SearchCursor, digest: string): string {
  const payload = Buffer.from(
    JSON.stringify([cursorVersion, cursor.sortValue, cursor.id, cursor.position, cursor.total, cursor.invoicesVersion, digest]),
  ).toString('base64url');
  return `${payload}.${base64urlDigest(payload, checksumLength)}`;
}

const malformed = (): ApiError =>
  ApiError.invalid(
    'cursor',
    'is malformed or altered; send pagination.next_cursor exactly as it was returned',
    "Invalid search request: 'cursor' is malformed or altered; send pagination.next_cursor exactly as it was returned.",
  );

/** A sort value from a cursor, checked as the sort field's type (from the spec); undefined when it is not one. */
function checkedSortValue(orderBy: SortField, value: unknown): SearchValue | undefined {
  switch (searchRules.sortValueTypes[orderBy]) {
    case 'integer':
      return Number.isSafeInteger(value) ? (value as number) : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'date':
      return valueTypes.date.parse(value);
    case 'date-time':
      return valueTypes['date-time'].parse(value);
    default:
      // PostgreSQL text cannot hold U+0000.
      return typeof value === 'string' && !value.includes('\u0000') ? value : undefined;
  }
}

/** A non-negative safe integer: a position, an id, a total or a version. */
function isPosition(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The cursor's position, or a 400 naming `cursor` when it is malformed, altered or of another search. */
export function decodeCursor(text: string, binding: CursorBinding): SearchCursor {
  const [payload, checksum, ...rest] = text.split('.');
  if (payload === undefined || checksum === undefined || rest.length > 0 || base64urlDigest(payload, checksumLength) !== checksum) throw malformed();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!Array.isArray(decoded) || decoded.length !== 7 || decoded[0] !== cursorVersion) throw malformed();
  const [, rawSortValue, id, position, total, invoicesVersion, digest] = decoded as unknown[];
  if (digest !== searchDigest(binding)) {
    throw ApiError.invalid(
      'cursor',
      'belongs to another search; send it with the criteria, order_by and order_direction of the page that returned it',
      "Invalid search request: 'cursor' belongs to another search; send it with the criteria, order_by and order_direction of the page that returned it.",
    );
  }
  const sortValue = checkedSortValue(binding.orderBy, rawSortValue);
  if (sortValue === undefined || !isPosition(id) || !isPosition(position) || !isPosition(total) || !isPosition(invoicesVersion)) throw malformed();
  return { sortValue, id, position, total, invoicesVersion };
}
