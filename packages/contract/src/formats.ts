// The spec's custom number formats. JSON Schema's `multipleOf: 0.01` fails on binary floats
// (Ajv rejects 19.99), so decimal places are checked on the number's shortest decimal form instead.
// One definition, used by the service's validator and by the tests that check the spec's examples.

/** Number of decimal places in the shortest decimal form of `value` (19.99 -> 2, 1e-7 -> 7). */
export function decimalPlaces(value: number): number {
  const match = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) return Number.POSITIVE_INFINITY;
  const fraction = match[1]?.length ?? 0;
  const exponent = Number(match[2] ?? 0);
  return Math.max(0, fraction - exponent);
}

export interface NumberFormat {
  name: string;
  type: 'number';
  validate: (value: number) => boolean;
}

function maxDecimals(name: string, places: number): NumberFormat {
  return { name, type: 'number', validate: (value) => Number.isFinite(value) && decimalPlaces(value) <= places };
}

/** `decimal2` money, `decimal3` quantities, `decimal4` unit prices. */
export const numberFormats: readonly NumberFormat[] = [maxDecimals('decimal2', 2), maxDecimals('decimal3', 3), maxDecimals('decimal4', 4)];
