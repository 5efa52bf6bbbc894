// The decisions of `pnpm scaffold` on the real operations/index.ts and tag files: which operations
// lack a handler, where each stub goes, what it answers, and the lines that wire it. The whole loop
// (files written, the server compiling, the stub answering) is in designer-loop.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationTable } from '@invoice-api/contract';
import { repoRoot } from '../../../../scripts/lib/prism.mjs';
import {
  declaresHandler,
  fileOf,
  missingImports,
  namespaceOf,
  planStubs,
  readWiring,
  staleOperations,
  stubError,
  stubSource,
  wire,
  withImports,
} from '../../../../scripts/lib/scaffold-core.mjs';

const operationsDir = join(repoRoot, 'packages/server/src/operations');
const indexSource = readFileSync(join(operationsDir, 'index.ts'), 'utf8');
const entries = Object.values(operationTable).map((entry) => ({ ...entry, statuses: [...entry.statuses] }));
const newEntry = (operationId: string, tag: string, statuses = [200, 400, 401, 403, 429, 500, 503]) => ({
  operationId,
  tag,
  statuses,
  method: 'GET',
  path: `/api/v1/${operationId}`,
  summary: `Do ${operationId}`,
});

describe('scaffold', () => {
  it('finds every operation of the spec wired in index.ts today, so it writes nothing', () => {
    const wiring = readWiring(indexSource);
    expect(planStubs(entries, wiring)).toEqual([]);
    expect(staleOperations(entries, wiring)).toEqual([]);
  });

  it('puts a new operation of a known tag in the file holding that tag, and one of a new tag in <tag>.ts', () => {
    const wiring = readWiring(indexSource);
    const stubs = planStubs([...entries, newEntry('getUserRoles', 'users'), newEntry('getReport', 'company reports')], wiring);
    expect(stubs.map(({ entry, file, namespace }) => [entry.operationId, file, namespace])).toEqual([
      ['getUserRoles', 'directory', 'directory'],
      ['getReport', 'company-reports', 'companyReports'],
    ]);
    const wired = wire(wiring, stubs);
    expect(wired).toContain("import * as invoices from './invoices.js';\nimport * as companyReports from './company-reports.js';\n");
    expect(wired).toContain('    getHealth: health.getHealth,\n    getUserRoles: directory.getUserRoles,\n    getReport: companyReports.getReport,\n  };');
    // Only added lines: every line of the old file is still there, in order.
    expect(wired.split('\n').filter((line) => indexSource.split('\n').includes(line))).toEqual(indexSource.split('\n'));
  });

  it('reports an operation wired in index.ts that the spec dropped, instead of deleting it', () => {
    expect(
      staleOperations(
        entries.filter((entry) => entry.operationId !== 'getUser'),
        readWiring(indexSource),
      ),
    ).toEqual(['getUser']);
  });

  it('refuses an index.ts it cannot edit safely', () => {
    expect(() => readWiring('export function createHandlers() { return { getUser }; }')).toThrow(/cannot wire/);
  });

  it('answers a documented 500 (else 503), never an undocumented status', () => {
    expect(stubError(newEntry('a', 't'))).toEqual({ status: 500, code: 'internal_error' });
    expect(stubError(newEntry('a', 't', [200, 503]))).toEqual({ status: 503, code: 'service_unavailable' });
    expect(() => stubError(newEntry('a', 't', [200, 404]))).toThrow(/neither 500 nor 503/);
    const source = stubSource(newEntry('getReport', 'reports'));
    expect(source).toContain("export const getReport: Handler<'getReport', RequestContext> = async () => {");
    expect(source).toContain(
      "return { status: 500, body: { error: 'internal_error', message: 'getReport (GET /api/v1/getReport) is not implemented yet.' } };",
    );
  });

  it('adds the imports a stub needs to a tag file only when it lacks them, after its last import', () => {
    const directory = readFileSync(join(operationsDir, 'directory.ts'), 'utf8');
    expect(missingImports(directory)).toEqual([]);
    const bare = "// header\nimport { x } from './x.js';\nimport {\n  y,\n} from './y.js';\n\nexport const z = 1;\n";
    expect(missingImports(bare)).toHaveLength(2);
    expect(withImports(bare, ['import A;'])).toBe(
      "// header\nimport { x } from './x.js';\nimport {\n  y,\n} from './y.js';\nimport A;\n\nexport const z = 1;\n",
    );
    expect(declaresHandler(directory, 'getUser')).toBe(true);
    expect(declaresHandler(directory, 'getUserRoles')).toBe(false);
  });

  it('names files and namespaces after the tag', () => {
    expect(fileOf('Company Clients')).toBe('company-clients');
    expect(namespaceOf('company-clients')).toBe('companyClients');
  });
});
