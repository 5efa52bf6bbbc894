// The document the service's request validator compiles passes the validator's own check of an OpenAPI
// document, which the service skips at start (the document is made and linted at generate time).
// The same check refuses a broken document, so a pass here means something.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { validatorSpecPath } from '@invoice-api/contract';
import { specValidatorOptions } from '../../src/http/validator.js';

type Document = Record<string, unknown> & { paths: Record<string, Record<string, { parameters?: unknown[] }>> };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

/** The status and body of a GET /healthz through the validator with the document check on, over `apiSpec`. */
async function throughCheckedValidator(apiSpec: string | Document): Promise<{ status: number; body: string }> {
  const app = express();
  app.use(OpenApiValidator.middleware({ ...specValidatorOptions({ requestValidation: true }), apiSpec: apiSpec as never, validateApiSpec: true }));
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.use((error: Error, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
    response.status(500).send(error.message);
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: response.status, body: await response.text() };
}

describe("the request validator's document", () => {
  it("passes express-openapi-validator's check of an OpenAPI document", async () => {
    expect(specValidatorOptions({ requestValidation: true }).validateApiSpec).toBe(false);
    expect(await throughCheckedValidator(validatorSpecPath)).toEqual({ status: 200, body: '{"status":"ok"}' });
  });

  it('is checked by that check: a parameter without a name is refused', async () => {
    const broken = JSON.parse(readFileSync(validatorSpecPath, 'utf8')) as Document;
    const operation = broken.paths['/api/v1/invoices/{invoice_id}']!['get']!;
    operation.parameters = [{ in: 'query', schema: { type: 'string' } }];
    const answer = await throughCheckedValidator(broken);
    expect(answer.status).toBe(500);
    expect(answer.body).toContain('args.apiDoc was invalid');
  });
});
