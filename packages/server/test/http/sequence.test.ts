// sequence(): the API's checks run as one middleware, with express's own rules for `next`, thrown
// errors and rejected promises, so that moving them out of express's router changes no answer.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sequence } from '../../src/http/sequence.js';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Serves `steps` as one sequence, then a final 200 that lists the steps passed; errors answer 500 with their message. */
async function serve(steps: RequestHandler[]): Promise<string> {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.passed = [];
    next();
  });
  app.use(sequence(steps));
  app.use((_req, res) => {
    res.json({ passed: res.locals.passed });
  });
  app.use(((error: Error, _req, res, _next) => {
    res.status(500).json({ error: error.message, passed: res.locals.passed });
  }) as ErrorRequestHandler);
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const step =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    (res.locals.passed as string[]).push(name);
    next();
  };

async function get(url: string): Promise<{ status: number; body: { passed: string[]; error?: string } }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as { passed: string[]; error?: string } };
}

describe('sequence', () => {
  it('runs every step in order, then what follows it', async () => {
    expect(await get(await serve([step('a'), step('b'), step('c')]))).toEqual({ status: 200, body: { passed: ['a', 'b', 'c'] } });
  });

  it('passes on at once when it has no step', async () => {
    expect(await get(await serve([]))).toEqual({ status: 200, body: { passed: [] } });
  });

  it('leaves for the error handlers at next(error), skipping the steps after it', async () => {
    const failing: RequestHandler = (_req, _res, next) => next(new Error('refused'));
    expect(await get(await serve([step('a'), failing, step('c')]))).toEqual({ status: 500, body: { error: 'refused', passed: ['a'] } });
  });

  it('treats a thrown error like next(error)', async () => {
    const throwing: RequestHandler = () => {
      throw new Error('thrown');
    };
    expect(await get(await serve([step('a'), throwing, step('c')]))).toEqual({ status: 500, body: { error: 'thrown', passed: ['a'] } });
  });

  it('treats a rejected promise like next(error), as express 5 does', async () => {
    const rejecting: RequestHandler = async () => {
      await Promise.resolve();
      throw new Error('rejected');
    };
    expect(await get(await serve([step('a'), rejecting, step('c')]))).toEqual({ status: 500, body: { error: 'rejected', passed: ['a'] } });
  });

  it('lets a step answer by itself, running nothing after it', async () => {
    const answering: RequestHandler = (_req, res) => {
      res.status(204).end();
    };
    const url = await serve([step('a'), answering, step('c')]);
    const response = await fetch(url);
    expect(response.status).toBe(204);
  });
});
