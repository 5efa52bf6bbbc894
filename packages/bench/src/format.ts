// How the bench's reports write a ratio and a median with its range.
import type { Spread } from './ab.js';

/** A ratio: `1.23x`. */
export const times = (value: number): string => `${value.toFixed(2)}x`;

/** A median and its range: `1.23x (1.10x to 1.40x)`. */
export const spreadText = (value: Spread, format: (n: number) => string): string => `${format(value.median)} (${format(value.min)} to ${format(value.max)})`;
