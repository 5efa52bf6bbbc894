// The fixture spec of shapes (packages/contract/test/fixtures/shapes/openapi.yaml) as a served contract:
// generated into the folder the contract's typecheck uses (hash-cached, so a second generation is a
// no-op), then loaded as the service loads the product's files. A service started on it runs the whole
// pipeline of the product over every body and parameter shape the kit carries.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import type { RequestContext } from '../../../src/context.js';
import type { Database } from '../../../src/db/database.js';
import type { ServedHandlers } from '../../../src/http/router.js';
import type { ServedContract } from '../../../src/http/served-contract.js';
import { startServer } from '../../../src/runtime/server.js';
// The handler contract's generic types (contract/src/handlers.ts), which the package index does not
// re-export; type-only, so nothing of the contract's sources runs from here.
import type { ContractHandlerMap } from '../../../../contract/src/handlers.js';
import type { operations } from '../../../../contract/test/fixtures/shapes/generated/schema.js';
import type { operationTable } from '../../../../contract/test/fixtures/shapes/generated/operations.js';
import { testKeyFile, type TestService } from './service.js';

const repositoryRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
const fixture = 'packages/contract/test/fixtures/shapes';
const generated = new URL('../../../../contract/test/fixtures/shapes/generated/', import.meta.url);

/** The fixture's contract, as the handler types read it. */
export interface Shapes {
  readonly operations: operations;
  readonly table: typeof operationTable;
}

/** A handler for every operation of the fixture, typed by its spec. */
export type ShapeHandlers = ContractHandlerMap<Shapes, RequestContext>;

/** Generates the fixture's files (when its spec or the generator changed) and loads its contract. */
export async function shapesContract(): Promise<ServedContract> {
  const result = spawnSync(process.execPath, ['scripts/generate.mjs', '--spec', `${fixture}/openapi.yaml`, '--out', `${fixture}/generated`], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`generating the fixture spec of shapes failed:\n${result.stdout}\n${result.stderr}`);
  // Loaded once generated: a static import would run before the files exist on a fresh clone.
  const table = await import('../../../../contract/test/fixtures/shapes/generated/operations.js');
  const validators = await import('../../../../contract/test/fixtures/shapes/generated/service-response-validators.js');
  return {
    operations: table.operationTable,
    validatorSpecPath: fileURLToPath(new URL('openapi.validator.json', generated)),
    responseValidators: validators.responseValidators,
  };
}

/** The fixture's handlers use no database: any use of it is a test's mistake, and says so. */
const noDatabase = new Proxy(
  {},
  {
    get(_target, property) {
      throw new Error(`the fixture service has no database (read ${String(property)})`);
    },
  },
) as Database;

export interface ShapesServiceOptions {
  contract: ServedContract;
  handlers: ShapeHandlers;
  /** Environment variables on top of PORT=0, the test key file and silent logs. */
  env?: Record<string, string>;
  logger?: Logger;
}

/** The service on the fixture contract, listening on a free loopback port. */
export async function startShapesService(options: ShapesServiceOptions): Promise<TestService> {
  const config = loadConfig({ PORT: '0', DEV_KEY_FILE: testKeyFile, LOG_LEVEL: 'silent', ...options.env });
  const handlers: ServedHandlers = options.handlers;
  const app = await createApp({
    config,
    database: noDatabase,
    contract: options.contract,
    handlers,
    logger: options.logger ?? pino({ level: 'silent' }),
    warmUp: false,
  });
  const server = await startServer(app, config);
  return { url: server.url, config, server, close: () => server.close(1_000) };
}
