// The client-validation benchmark's plumbing at a tiny size (figures are printed by `pnpm bench --
// --client-validation`, never asserted): its answer passes the client's validators, every round
// yields a sample on both sides, and the report has its three rows.
import { describe, expect, it } from 'vitest';
import { measureClientValidation, renderClientValidation, searchAnswer } from '../src/client-validation.js';

describe('client validation benchmark', () => {
  it('measures a spec-valid 50-row answer with and without validateResponses, and renders the table', async () => {
    const options = { rows: 50, rounds: 2, callsPerRound: 3 };
    expect(searchAnswer(50).data).toHaveLength(50);
    const figures = await measureClientValidation(options);
    expect(figures.on).toHaveLength(2);
    expect(figures.off).toHaveLength(2);
    const report = renderClientValidation(figures, options);
    expect(report).toContain('50-row search answer');
    expect(report.split('\n').filter((line) => /^\| (off|on|cost of the check)/.test(line))).toHaveLength(3);
  });
});
