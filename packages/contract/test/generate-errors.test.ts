// `pnpm generate` on a spec that does not bundle: Redocly's own message (file, line, the reference
// that failed), one closing line and exit 1, never a Node stack of the generator. Runs the real script
// in a scratch copy of the repository's inputs (node_modules linked), writing to a scratch folder.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'generate-errors-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyOfInputs(): string {
  cpSync(join(root, 'scripts'), join(scratch, 'scripts'), { recursive: true });
  cpSync(join(root, 'openapi'), join(scratch, 'openapi'), { recursive: true });
  cpSync(join(root, 'redocly.yaml'), join(scratch, 'redocly.yaml'));
  mkdirSync(join(scratch, 'packages/contract/src'), { recursive: true });
  cpSync(join(root, 'packages/contract/src/json-nodes.mjs'), join(scratch, 'packages/contract/src/json-nodes.mjs'));
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  return scratch;
}

// Timeouts here are upper bounds that only end a hung run, not waits: each case runs the generator, and Redocly in it,
// as a process (seconds when idle, far more beside the rest of the suite on two cores).
describe('scripts/generate.mjs on a spec that does not bundle', () => {
  it("prints Redocly's message and one closing line, exits 1, and shows no stack", () => {
    const dir = copyOfInputs();
    const rootFile = join(dir, 'openapi/openapi.yaml');
    const spec = readFileSync(rootFile, 'utf8');
    const broken = spec.replace('$ref: paths/healthz.yaml', '$ref: paths/no-such-file.yaml');
    expect(broken, 'the edit changed nothing').not.toBe(spec);
    writeFileSync(rootFile, broken);

    const result = spawnSync(process.execPath, ['scripts/generate.mjs', '--force', '--out', join(dir, 'out')], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
    const output = result.stdout + result.stderr;
    expect(result.status).toBe(1);
    // Redocly's own explanation: the file and line, and the reference it could not resolve.
    expect(output).toMatch(/openapi\/openapi\.yaml:\d+:\d+/);
    expect(output).toContain("Can't resolve $ref");
    expect(output).toContain('no-such-file.yaml');
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('redocly bundle failed with exit code 1');
    // No stack frame of the generator, no Node error banner, no Redocly end-of-life box.
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('Node.js v');
    expect(output).not.toMatch(/[╔║╚]/);
  }, 120_000);
});
