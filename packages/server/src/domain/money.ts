// Exact money arithmetic for delivery lines. Binary floats would turn 0.1 x 3 into 0.30000000000000004
// and let the lines drift from the total, so every amount goes through decimal.js, and the rounding
// rule (half-up to cents, per line; the total is the sum of the rounded lines) lives here only.
import { Decimal } from 'decimal.js';
import { ApiError } from '../errors.js';

/** A decimal.js flavour with room for any quantity x unit price and the half-up rule of invoices. */
const Exact = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
type Exact = InstanceType<typeof Exact>;

/** The largest amount the API accepts or produces: 999,999,999,999.99. */
export const maxMoney = new Exact('999999999999.99');

/** A number from JSON or a numeric column's text, as an exact decimal (0.1 stays 0.1). */
export function exact(value: number | string): Exact {
  return new Exact(value);
}

/** A line's total: quantity x unit price, rounded half-up to 2 decimals. */
export function lineTotal(quantity: number | string, unitPrice: number | string): Exact {
  return exact(quantity).times(exact(unitPrice)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

export interface LineInput {
  item_id: number;
  quantity: number | string;
  unit_price: number | string;
}

export interface PricedLine {
  item_id: number;
  /** Exact decimal text, as stored. */
  quantity: string;
  unit_price: string;
  total: string;
}

export interface PricedLines {
  lines: PricedLine[];
  /** The sum of the rounded line totals, 2 decimals. */
  totalAmount: string;
}

/**
 * Prices every line and sums them. A total above 999,999,999,999.99 (which one line alone can
 * reach: 999,999.999 x 999,999,999.9999) is a 400 naming `items`, before anything is stored.
 */
export function priceLines(items: readonly LineInput[]): PricedLines {
  let sum = exact(0);
  const lines = items.map((item) => {
    const total = lineTotal(item.quantity, item.unit_price);
    sum = sum.plus(total);
    return { item_id: item.item_id, quantity: exact(item.quantity).toString(), unit_price: exact(item.unit_price).toString(), total: total.toFixed(2) };
  });
  if (sum.greaterThan(maxMoney)) {
    throw ApiError.invalid('items', `the sum of the item totals (${sum.toFixed(2)}) exceeds 999999999999.99`);
  }
  return { lines, totalAmount: sum.toFixed(2) };
}

/** Whether two amounts are the same money value (19.9 and '19.90' are). */
export function sameAmount(left: number | string, right: number | string): boolean {
  return exact(left).equals(exact(right));
}

/** A stored decimal (numeric text) as the JSON number the API returns; exact for every allowed value. */
export function toApiNumber(decimalText: string): number {
  return Number(decimalText);
}
