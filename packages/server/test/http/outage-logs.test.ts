// What a database outage looks like in the logs: every request answers 503 while it lasts, so each
// one is a single warning line (level 40) with the request id and the cause, without a stack; a real
// failure (500) stays an error with its stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/databases.js';
import { stubHandlers } from './support/handlers.js';
import { capturingLogger, startTestService, token, type TestService } from './support/service.js';

describe('logs during a database outage', () => {
  const database = useTestDatabase('postgres', { name: 'http_outage_logs' });
  const captured = capturingLogger();
  let service: TestService;
  let bearer: string;

  beforeAll(async () => {
    service = await startTestService({
      database: database(),
      logger: captured.logger,
      handlers: stubHandlers({
        listUsers: async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        },
        getUser: async () => {
          throw new Error('a bug');
        },
      }),
    });
    bearer = await token();
  });
  afterAll(() => service?.close());

  /** The request's own log line, found by the X-Request-Id of its answer. */
  async function logLineOf(path: string): Promise<{ status: number; line: Record<string, unknown> }> {
    const response = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    await response.arrayBuffer();
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const line = captured.lines().find((entry) => entry.requestId === requestId && (entry.res as { status?: number } | undefined)?.status !== undefined);
      if (line !== undefined) return { status: response.status, line };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no log line for ${path}`);
  }

  it('logs a database-unavailable 503 as one warning without a stack', async () => {
    const { status, line } = await logLineOf('/api/v1/users');
    expect(status).toBe(503);
    expect(line.level).toBe(40);
    expect(line).not.toHaveProperty('err');
    expect(JSON.stringify(line)).not.toMatch(/\n\s+at /);
    expect(line.reason).toBe('database unavailable: connect ECONNREFUSED 127.0.0.1:5432');
    expect(line.msg).toBe('service unavailable');
    expect(line.res).toEqual({ status: 503 });
  });

  it('still logs an unexpected 500 as an error with its stack', async () => {
    const { status, line } = await logLineOf('/api/v1/users/1');
    expect(status).toBe(500);
    expect(line.level).toBe(50);
    expect((line.err as { stack?: string }).stack).toMatch(/a bug\n\s+at /);
  });
});
