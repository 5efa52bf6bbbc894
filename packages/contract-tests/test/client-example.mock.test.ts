// The client's README example, run as is against the mock: if the spec, the mock or the client
// drift apart, the documented example stops working and this fails.
import { describe, expect, inject, it, vi } from 'vitest';
import { quickStart } from '../../client/examples/quick-start.js';

describe('the client README example', () => {
  it('runs against the mock', async () => {
    const mock = inject('contractTargets').find((target) => target.name === 'mock');
    if (!mock) throw new Error('the mock target was not started');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const result = await quickStart(mock.baseUrl);
      expect(result.issueStatus).toBe(409);
      expect(result.total).toBeGreaterThanOrEqual(0);
      expect(result.users).toBeGreaterThan(0);
      expect(log.mock.calls.map((call) => String(call[0]))).toContainEqual(expect.stringContaining('already_issued'));
    } finally {
      log.mockRestore();
    }
  });
});
