// Comparing two CPU profiles by package (cpu-profile.ts): the service's against express alone's, per
// request, so that a CPU target missed against express alone says where the difference goes.
import { describe, expect, it } from 'vitest';
import { packageDifferences, renderPackageDifferences, type ProfileSummary } from '../src/cpu-profile.js';

function summary(packages: Record<string, number>): ProfileSummary {
  const allPackages = Object.entries(packages).map(([name, ms]) => ({ name, ms }));
  const busy = allPackages.reduce((sum, entry) => sum + entry.ms, 0);
  return { file: 'x.cpuprofile', totalMs: busy + 100, idleMs: 100, functions: [], packages: allPackages.slice(0, 15), allPackages };
}

describe('packageDifferences', () => {
  // The service: 1,000 requests; express alone: 2,000 requests under the same load.
  const service = summary({ express: 40, 'express-openapi-validator': 30, '(garbage collector)': 20, '@invoice-api/server': 10 });
  const floor = summary({ express: 60, '(garbage collector)': 20, '@invoice-api/bench': 4 });
  const differences = packageDifferences(service, 1_000, floor, 2_000);

  it('is each package per request on each side, largest difference first, with packages only one side has', () => {
    expect(differences).toEqual([
      { name: 'express-openapi-validator', serviceUs: 30, floorUs: 0 },
      { name: 'express', serviceUs: 40, floorUs: 30 },
      { name: '(garbage collector)', serviceUs: 20, floorUs: 10 },
      { name: '@invoice-api/server', serviceUs: 10, floorUs: 0 },
      { name: '@invoice-api/bench', serviceUs: 0, floorUs: 2 },
    ]);
  });

  it('renders the differences, their shares of the whole difference and the totals', () => {
    const table = renderPackageDifferences(differences, 'express alone').split('\n');
    expect(table[0]).toBe('| package (self time) | service, µs per request | express alone, µs per request | difference | share of the difference |');
    // 100 µs against 42 µs: 58 µs more, of which the validator's 30 is 52 %.
    expect(table[2]).toBe('| express-openapi-validator | 30.0 | 0.0 | 30.0 | 52 % |');
    expect(table[6]).toBe('| @invoice-api/bench | 0.0 | 2.0 | -2.0 | -3 % |');
    expect(table.at(-1)).toBe('| **all** | 100.0 | 42.0 | 58.0 | 100 % |');
  });
});
