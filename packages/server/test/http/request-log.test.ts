// The request's log line (http/logging.ts): one per request, whatever way it ends, with the fields an
// operator searches by; and the logger a handler gets carries the request id on every line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/databases.js';
import { stubHandlers } from './support/handlers.js';
import { capturingLogger, startTestService, token, type TestService } from './support/service.js';

describe('request log lines', () => {
  const database = useTestDatabase('pglite', { name: 'http_request_log' });
  const captured = capturingLogger();
  let service: TestService;
  let bearer: string;
  let slowAnswerStarted = false;
  let releaseSlowAnswer: () => void = () => undefined;

  beforeAll(async () => {
    service = await startTestService({
      database: database(),
      logger: captured.logger,
      handlers: stubHandlers({
        listUsers: async (_request, context) => {
          context.log.info({ step: 'listing' }, 'handler line');
          return { status: 200, body: { users: [] } };
        },
        listCompanyClients: async () => {
          slowAnswerStarted = true;
          await new Promise<void>((resolve) => {
            releaseSlowAnswer = resolve;
          });
          return { status: 200, body: { company_clients: [] } };
        },
      }),
    });
    bearer = await token();
  });
  afterAll(() => service?.close());

  const linesOf = (requestId: string) => captured.lines().filter((line) => line.requestId === requestId);

  it('logs one line per request with its id, method, path, status and duration, and no token', async () => {
    const requestId = `log-${Date.now()}`;
    const response = await fetch(`${service.url}/2.0/delivery?limit=5`, { headers: { authorization: `Bearer ${bearer}`, 'x-request-id': requestId } });
    expect(response.status).toBe(200);
    await expect.poll(() => linesOf(requestId).filter((line) => line.msg === 'request completed').length).toBe(1);
    const line = linesOf(requestId).find((entry) => entry.msg === 'request completed');
    expect(line).toMatchObject({ level: 30, req: { method: 'GET', url: '/2.0/delivery?limit=5' }, res: { status: 200 } });
    expect(typeof line?.responseTime).toBe('number');
    expect(JSON.stringify(linesOf(requestId))).not.toContain(bearer);
  });

  it("gives the handler a logger whose lines carry the request's id", async () => {
    const requestId = `handler-${Date.now()}`;
    await fetch(`${service.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}`, 'x-request-id': requestId } });
    await expect.poll(() => linesOf(requestId).some((line) => line.msg === 'handler line' && line.step === 'listing')).toBe(true);
  });

  it('logs a refused token with the check that failed', async () => {
    const requestId = `refused-${Date.now()}`;
    const response = await fetch(`${service.url}/api/v1/users`, { headers: { authorization: 'Bearer not-a-token', 'x-request-id': requestId } });
    expect(response.status).toBe(401);
    await expect.poll(() => linesOf(requestId).length).toBe(1);
    expect(linesOf(requestId)[0]).toMatchObject({ res: { status: 401 }, tokenFailure: 'malformed' });
  });

  it('logs a request whose client left before the answer once, as aborted, when it closes', async () => {
    const requestId = `left-${Date.now()}`;
    const leaving = new AbortController();
    const request = fetch(`${service.url}/api/v1/company_clients`, {
      headers: { authorization: `Bearer ${bearer}`, 'x-request-id': requestId },
      signal: leaving.signal,
    }).catch(() => 'aborted');
    await expect.poll(() => slowAnswerStarted).toBe(true);
    leaving.abort();
    expect(await request).toBe('aborted');
    await expect.poll(() => linesOf(requestId).length).toBe(1);
    expect(linesOf(requestId)[0]?.msg).toBe('request aborted');
    releaseSlowAnswer();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(linesOf(requestId)).toHaveLength(1);
  });
});
