// A ratio target between two sides of the same rounds: met only over every pairing of rounds, and
// told round by round, so that a miss in every round reads differently from a noisy machine.
import { describe, expect, it } from 'vitest';
import { summarise, type AbSideResult } from '../src/ab.js';
import type { Figures } from '../src/figures.js';
import { judgeRatio } from '../src/ratio-target.js';

const sideWith = (name: string, cpu: number[], requestsPerSecond: number[] = cpu.map(() => 1)): AbSideResult =>
  summarise(
    name,
    cpu.map((cpuMsPerRequest, round) => ({ requestsPerSecond: requestsPerSecond[round]!, p50: 1, p99: 1, requests: 1, errors: 0, cpuMsPerRequest })),
  );
const cpu = (figures: Figures) => figures.cpuMsPerRequest;
const atMost = (limit: number) => ({ bound: 'at most', limit }) as const;

describe('judgeRatio', () => {
  it('is met when the whole range over every pairing of rounds meets the target', () => {
    const verdict = judgeRatio(sideWith('service', [0.5, 0.6, 0.55]), sideWith('peer', [1.0, 0.9, 1.1]), cpu, atMost(0.8));
    expect(verdict.met).toBe(true);
    expect(verdict.anyPairing.max).toBeCloseTo(0.6 / 0.9);
    expect(verdict.roundsMet).toBe(3);
    expect(verdict.measured).toBe('0.55x (0.45x to 0.67x) over every pairing of rounds; round by round 0.50x (0.50x to 0.67x), at most 0.80x in 3 of 3 rounds');
  });

  it('is not met when only the rounds, each beside its own, meet it: the verdict says so by the rounds', () => {
    // The machine slowed down in round 2 for both sides: each round's ratio is 0.5, but pairing the
    // service's slow round with the peer's fast one gives 1.0.
    const verdict = judgeRatio(sideWith('service', [0.5, 1.0]), sideWith('peer', [1.0, 2.0]), cpu, atMost(0.8));
    expect(verdict.met).toBe(false);
    expect(verdict.anyPairing.max).toBeCloseTo(1.0);
    expect([verdict.byRound.min, verdict.byRound.max]).toEqual([0.5, 0.5]);
    expect(verdict.measured).toContain('at most 0.80x in 2 of 2 rounds');
  });

  it('counts the rounds that missed', () => {
    const verdict = judgeRatio(sideWith('service', [0.7, 0.9, 1.2]), sideWith('peer', [1.0, 1.0, 1.0]), cpu, atMost(0.8));
    expect(verdict.met).toBe(false);
    expect(verdict.roundsMet).toBe(1);
    expect(verdict.measured).toContain('in 1 of 3 rounds');
  });

  it('judges a throughput by its lowest ratio', () => {
    // Each round is above 1.25x (1.30x, 1.40x, 1.36x); the slowest service round against the fastest peer round is 1.18x.
    const service = sideWith('service', [1, 1, 1], [1300, 1400, 1500]);
    const peer = sideWith('peer', [1, 1, 1], [1000, 1000, 1100]);
    const throughput = (figures: Figures) => figures.requestsPerSecond;
    expect(judgeRatio(service, peer, throughput, { bound: 'at least', limit: 1.25 }).met).toBe(false);
    expect(judgeRatio(service, peer, throughput, { bound: 'at least', limit: 1.18 }).met).toBe(true);
    expect(judgeRatio(service, peer, throughput, { bound: 'at least', limit: 1.25 }).roundsMet).toBe(3);
  });

  it('does not judge when a round lacks the figure, rather than drop that round', () => {
    const verdict = judgeRatio(sideWith('service', [0.5, Number.NaN]), sideWith('peer', [1.0, 1.0]), cpu, atMost(0.8));
    expect(verdict.met).toBeUndefined();
    expect(verdict.measured).toContain('not judged: the figure is missing in 1 of them');
  });

  it('says "not measured" when no round has the figure', () => {
    const verdict = judgeRatio(sideWith('service', [0.5]), sideWith('peer', [1.0]), (figures) => figures.databaseCpuMsPerRequest, atMost(0.8));
    expect(verdict).toMatchObject({ met: undefined, measured: 'not measured' });
  });
});
