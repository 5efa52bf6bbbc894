// A target on the ratio of two sides of the same interleaved rounds ("the service's CPU at most 0.8x
// the peer's"), judged the strict way: met only when the whole range over every pairing of a round of
// one side with a round of the other meets it, the widest range the rounds allow. That range cannot
// tell a miss in every round from a noisy machine, so beside it the verdict gives the ratio round by
// round (the two sides of the same round, under a minute apart) and in how many rounds it held.
import { ratioSpread, roundByRoundRatio, spread, type AbSideResult, type RoundRatios, type Spread } from './ab.js';
import type { Figures } from './figures.js';
import { spreadText, times } from './format.js';

export interface RatioTarget {
  /** `a` / `b` at most `limit` (a cost), or at least `limit` (a throughput). */
  bound: 'at most' | 'at least';
  limit: number;
}

export interface RatioVerdict {
  /** Met over every pairing; undefined when a round lacks the figure on either side (not judged). */
  met: boolean | undefined;
  /** The ratio over every pairing, then round by round and the rounds that met the target. */
  measured: string;
  anyPairing: Spread;
  byRound: RoundRatios;
  /** Rounds whose own ratio meets the target. */
  roundsMet: number;
}

const ratioText = (value: Spread): string => spreadText(value, times);

function meets(ratio: number, target: RatioTarget): boolean {
  return target.bound === 'at most' ? ratio <= target.limit : ratio >= target.limit;
}

/** The figure `figure` of `a` over `b`, judged against `target` over every pairing and told round by round. */
export function judgeRatio(a: AbSideResult, b: AbSideResult, figure: (figures: Figures) => number | undefined, target: RatioTarget): RatioVerdict {
  const values = (side: AbSideResult): number[] => side.rounds.map((round) => figure(round) ?? Number.NaN);
  const anyPairing = ratioSpread(spread(values(a)), spread(values(b)));
  const byRound = roundByRoundRatio(a, b, figure);
  const roundsMet = byRound.ratios.filter((ratio) => Number.isFinite(ratio) && meets(ratio, target)).length;
  if (byRound.rounds === 0) return { met: undefined, measured: 'not measured', anyPairing, byRound, roundsMet };
  const strict = target.bound === 'at most' ? anyPairing.max : anyPairing.min;
  const missing = byRound.of - byRound.rounds;
  const measured =
    `${ratioText(anyPairing)} over every pairing of rounds; round by round ${ratioText(byRound)}, ` +
    `${target.bound} ${times(target.limit)} in ${roundsMet} of ${byRound.of} rounds` +
    (missing > 0 ? ` (not judged: the figure is missing in ${missing} of them)` : '');
  return { met: missing > 0 ? undefined : meets(strict, target), measured, anyPairing, byRound, roundsMet };
}
