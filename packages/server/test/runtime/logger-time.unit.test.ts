import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoTimeEachMillisecond } from '../../src/runtime/logger.js';

describe('isoTimeEachMillisecond', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes exactly what pino's isoTime writes, at every instant", () => {
    vi.useFakeTimers();
    const timestamp = isoTimeEachMillisecond();
    for (const instant of [0, 1, 999, 1_000, 1_772_357_400_123, 1_772_357_400_124, 253_402_300_799_999]) {
      vi.setSystemTime(instant);
      expect(timestamp()).toBe(pino.stdTimeFunctions.isoTime());
    }
  });

  it('formats once per millisecond and again as soon as the clock moves', () => {
    let clock = 1_772_357_400_123;
    const toISOString = vi.spyOn(Date.prototype, 'toISOString');
    const timestamp = isoTimeEachMillisecond(() => clock);
    const first = timestamp();
    expect(timestamp()).toBe(first);
    expect(toISOString).toHaveBeenCalledTimes(1);
    clock += 1;
    expect(timestamp()).toBe(',"time":"2026-03-01T09:30:00.124Z"');
    expect(toISOString).toHaveBeenCalledTimes(2);
    toISOString.mockRestore();
  });
});
