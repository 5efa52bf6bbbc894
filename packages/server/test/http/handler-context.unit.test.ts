// The context each handler receives: what the steps before it recorded for the request, a logger whose
// lines carry the request id (made only when asked for, once), and the check of its operation's
// answers when answers are checked.
import { Writable } from 'node:stream';
import type { Request, Response } from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { operationTable } from '@invoice-api/contract';
import type { Database } from '../../src/db/database.js';
import { AnswerMismatch } from '../../src/http/answer-check.js';
import { handlerContexts } from '../../src/http/handler-context.js';
import { productContract } from '../../src/http/served-contract.js';

const database = { engine: 'postgres' } as unknown as Database;
const request = {} as Request;

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  let children = 0;
  const logger = pino({ level: 'info' }, destination);
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children += 1;
    return child(...args);
  }) as typeof logger.child;
  return { logger, lines, children: () => children };
}

function responseWith(locals: Record<string, unknown>): Response {
  return { locals } as unknown as Response;
}

describe('handlerContexts', () => {
  it("carries the request's caller, id, idempotency claim and If-Match condition", () => {
    const { logger } = capturingLogger();
    const caller = { accountId: 7, apiKey: 'key', scopes: new Set(['invoices:read']) };
    const idempotency = { key: 'k' };
    const ifMatch = { kind: 'any' };
    const context = handlerContexts({ database, logger, checkAnswers: false, validators: productContract.responseValidators })(
      request,
      responseWith({ caller, requestId: 'req-1', idempotency, ifMatch, operation: operationTable.getInvoice }),
    );
    expect(context).toMatchObject({ caller, requestId: 'req-1', idempotency, ifMatch, db: database });
    expect(context.checkAnswer).toBeUndefined();
  });

  it('logs with the request id, through one child logger made on first use', async () => {
    const { logger, lines, children } = capturingLogger();
    const context = handlerContexts({ database, logger, checkAnswers: false, validators: productContract.responseValidators })(
      request,
      responseWith({ requestId: 'req-2' }),
    );
    expect(children()).toBe(0);
    context.log.info('first');
    context.log.warn('second');
    expect(children()).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ['first', 'req-2'],
      ['second', 'req-2'],
    ]);
  });

  it("checks answers against the request's operation when answers are checked", () => {
    const { logger } = capturingLogger();
    const contexts = handlerContexts({ database, logger, checkAnswers: true, validators: productContract.responseValidators });
    const context = contexts(request, responseWith({ requestId: 'req-3', operation: operationTable.getInvoice }));
    expect(context.checkAnswer).toBeTypeOf('function');
    expect(() => context.checkAnswer?.(200, { invoice: { id: 'not a number' } })).toThrow(AnswerMismatch);
    expect(() => context.checkAnswer?.(200, { invoice: { id: 'not a number' } })).toThrow(/getInvoice/);
    // Another operation's check is its own.
    const health = contexts(request, responseWith({ requestId: 'req-4', operation: operationTable.getHealth }));
    expect(() => health.checkAnswer?.(200, { invoice: { id: 'not a number' } })).toThrow(/getHealth/);
  });
});
