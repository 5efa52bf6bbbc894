// The validators are compiled before the service listens: no request, the first of each operation and
// Content-Type included, makes express-openapi-validator compile a schema (a compilation blocks the
// event loop for hundreds of milliseconds; a SIGTERM in such a stall reset requests already sent).
// Ajv's addSchema is where every lazy compilation of the validator starts, and _compileSchemaEnv is
// where every compilation happens (addSchema's lazy one, compile(), a getSchema of an uncompiled
// schema): both are counted here, after the service listens.
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { warmUpRequests } from '../../src/http/warm-up.js';
import { useTestDatabase } from '../support/databases.js';
import { stubHandlers } from './support/handlers.js';
import { startTestService, token, type TestService } from './support/service.js';

/** Ajv's class as express-openapi-validator loads it (its own dependency, the same module instance). */
interface AjvPrototype {
  addSchema: (...args: unknown[]) => unknown;
  _compileSchemaEnv: (...args: unknown[]) => unknown;
}

function validatorsAjv(): { prototype: AjvPrototype } {
  const fromServer = createRequire(import.meta.url);
  const fromValidator = createRequire(fromServer.resolve('express-openapi-validator'));
  return (fromValidator('ajv/dist/core') as { default: { prototype: AjvPrototype } }).default;
}

/** The list operations answer empty lists; every other operation finds nothing (404, not a 500). */
const notFound = async (): Promise<never> => {
  throw ApiError.notFound('Nothing here.');
};
const handlers = stubHandlers({
  createInvoice: notFound,
  getInvoice: notFound,
  updateInvoice: notFound,
  deleteInvoice: notFound,
  getUser: notFound,
  getCompanyClient: notFound,
  createDelivery: notFound,
  getDelivery: notFound,
  updateDelivery: notFound,
  issueDelivery: notFound,
  deleteDelivery: notFound,
  getInvoicePdf: notFound,
  exportInvoices: async () => ({ status: 200, headers: { 'Content-Disposition': 'attachment; filename=invoices.csv' }, body: 'id\r\n' }),
  uploadInvoiceAttachment: notFound,
  listInvoiceAttachments: notFound,
  getInvoiceAttachment: notFound,
  deleteInvoiceAttachment: notFound,
});

describe('validator warm-up', () => {
  const database = useTestDatabase('postgres', { name: 'http_warm_up' });
  const ajv = validatorsAjv();
  const original = ajv.prototype.addSchema;
  const originalCompile = ajv.prototype._compileSchemaEnv;
  const added: string[] = [];
  let compiled = 0;
  const services: TestService[] = [];
  let bearer: string;

  beforeAll(async () => {
    ajv.prototype.addSchema = function (this: unknown, ...args: unknown[]) {
      if (typeof args[1] === 'string') added.push(args[1]);
      return original.apply(this, args);
    };
    ajv.prototype._compileSchemaEnv = function (this: unknown, ...args: unknown[]) {
      compiled += 1;
      return originalCompile.apply(this, args);
    };
    bearer = await token();
  });
  afterEach(() => {
    added.length = 0;
    compiled = 0;
  });
  afterAll(async () => {
    ajv.prototype.addSchema = original;
    ajv.prototype._compileSchemaEnv = originalCompile;
    await Promise.all(services.map((service) => service.close()));
  });

  /** Every warm-up shape once more, now through the real app with a token. */
  async function sendEveryShape(url: string): Promise<void> {
    for (const request of warmUpRequests()) {
      const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
      if (request.contentType !== undefined) headers['content-type'] = request.contentType;
      const response = await fetch(`${url}${request.path}`, { method: request.method, headers, ...(request.contentType === undefined ? {} : { body: '{}' }) });
      await response.arrayBuffer();
      expect(response.status, `${request.method} ${request.path} ${request.contentType ?? ''}`).toBeLessThan(500);
    }
  }

  it('compiles every request and response validator before the app is returned', async () => {
    const service = await startTestService({ database: database(), handlers, warmUp: true });
    services.push(service);
    const compiledAtStart = added.length;
    // Request validators of every operation and Content-Type (answers are checked by generated code).
    expect(compiledAtStart).toBeGreaterThan(2 * warmUpRequests().length);
    expect(compiled).toBeGreaterThan(0);
    added.length = 0;
    compiled = 0;
    await sendEveryShape(service.url);
    expect(added, 'schemas added by requests after the start').toEqual([]);
    expect(compiled, 'schemas compiled by requests after the start').toBe(0);
  });

  it('(the same requests compile lazily without the warm-up: what the test above guards)', async () => {
    const service = await startTestService({ database: database(), handlers, warmUp: false });
    services.push(service);
    added.length = 0;
    compiled = 0;
    await sendEveryShape(service.url);
    expect(added.length).toBeGreaterThan(warmUpRequests().length);
    expect(compiled).toBeGreaterThan(warmUpRequests().length);
  });
});
