// The client as another repository gets it: `pnpm --filter @invoice-api/client pack`, the tarball
// installed with plain npm into a scratch project outside the workspace (its own package.json, no
// workspace above it), then the consumer in ./consumer/ type-checked under strict with
// moduleResolution nodenext and bundler, run in Node against the Prism mock, and bundled for the
// browser with esbuild (the bundle run against the mock too); its MSW test set-up (msw-main.ts)
// type-checked and run with `setupServer(...createHandlers())`. Each step is printed with its time.
//
// The scratch project installs the tarball, @types/node, msw (the peer dependency of
// `@invoice-api/client/msw`) and @tanstack/query-core (the query subpath's peer), each at the version
// the workspace tests with, from the npm registry (`--prefer-offline`:
// the npm cache serves repeated runs); TypeScript and esbuild are the workspace's own, pinned by its
// lockfile, run with the scratch project as their working directory, so every module they resolve
// comes from the scratch project's node_modules. TypeScript runs in this process through its API
// (type-check-project.ts): each tsconfig is its own program with its own resolution, and the errors
// asked for are those of the consumer and of the installed client's declarations, not those of the
// other packages' declarations (@types/node, msw, @tanstack/query-core), which are not under test.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startPrism, type RunningPrism } from '../../../scripts/lib/prism.mjs';
import { pnpmCommand } from '../../../scripts/lib/pnpm-command.mjs';
import { typeCheckProject } from './type-check-project.js';

const [pnpmExecutable, ...pnpmArguments] = pnpmCommand();

const clientDir = fileURLToPath(new URL('..', import.meta.url));
const consumerSources = fileURLToPath(new URL('./consumer/', import.meta.url));
const require = createRequire(import.meta.url);
// The Node types the workspace itself compiles against.
const nodeTypesVersion = (JSON.parse(readFileSync(require.resolve('@types/node/package.json', { paths: [repoRoot] }), 'utf8')) as { version: string }).version;
const workspaceManifest = JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const queryCore = `@tanstack/query-core@${workspaceManifest.devDependencies['@tanstack/query-core']}`;

interface StepResult {
  code: number | null;
  output: string;
}

// pnpm and npm read `npm_*` variables as configuration; those of the pnpm that runs this test
// (its user agent, its lifecycle) must not leak into the scratch project's npm.
const childEnv = Object.fromEntries(Object.entries({ ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0' }).filter(([name]) => !/^npm_/i.test(name)));

/** Runs one step without blocking the event loop (Prism starts meanwhile); its output is the failure message. */
function step(title: string, command: string, args: string[], cwd: string): Promise<StepResult> {
  process.stdout.write(`client tarball: ${title} ($ ${command} ${args.join(' ')})\n`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      process.stdout.write(`client tarball: ${title}: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      resolve({ code, output });
    });
  });
}

async function passingStep(title: string, command: string, args: string[], cwd: string, attempts = 1): Promise<string> {
  let result = await step(title, command, args, cwd);
  for (let attempt = 1; attempt < attempts && result.code !== 0; attempt += 1) result = await step(`${title} (again)`, command, args, cwd);
  if (result.code !== 0) throw new Error(`${title} failed (exit ${result.code}):\n${result.output}`);
  return result.output;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/**
 * Type-checks the consumer with one of its tsconfigs and writes its output (tsc -p): its own sources,
 * and the installed client's declarations where the tsconfig checks declarations. Returns the checked
 * files, relative to the consumer.
 */
function typeCheckConsumer(title: string, tsconfig: string): string[] {
  const project = join(scratch, 'consumer');
  const projectModules = join(project, 'node_modules/');
  const installedClient = join(projectModules, '@invoice-api/client/');
  process.stdout.write(`client tarball: ${title} (TypeScript's API, -p ${tsconfig})\n`);
  const started = Date.now();
  const { errors, checkedFiles } = typeCheckProject(
    join(project, tsconfig),
    (fileName) => fileName.startsWith(installedClient) || (fileName.startsWith(project) && !fileName.startsWith(projectModules)),
  );
  process.stdout.write(`client tarball: ${title}: ${errors === '' ? 'clean' : 'errors'} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (errors !== '') throw new Error(`${title} failed:\n${errors}`);
  return checkedFiles.map((file) => relative(project, file));
}

/** The last line of a step's output, parsed: the consumer prints its summary as one JSON line. */
function lastJsonLine(output: string): unknown {
  return JSON.parse(output.trim().split('\n').pop() ?? '');
}

let scratch: string;
let tarball: string;
let tarballFiles: string[];
let packedManifest: Record<string, unknown> & { exports?: Record<string, Record<string, string> | string> };
let mock: RunningPrism | undefined;
let mockStarting: Promise<RunningPrism>;

const expectedSummary = {
  issueStatus: 409,
  issueError: 'already_issued',
  searchIsSafe: true,
};

describe('the packed client, installed with npm in a project outside the workspace', () => {
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'client-tarball-'));
    process.stdout.write(`client tarball: scratch project ${scratch}\n`);
    mockStarting = startPrism({ mode: 'mock' });
    mockStarting.then(
      (started) => (mock = started),
      () => undefined,
    );

    const packDir = join(scratch, 'pack');
    const packed = await passingStep(
      'pack (the prepack script builds dist/)',
      pnpmExecutable,
      [...pnpmArguments, '--filter', workspaceManifest.name, 'pack', '--pack-destination', packDir],
      repoRoot,
    );
    const tarballs = readdirSync(packDir).filter((name) => name.endsWith('.tgz'));
    if (tarballs.length !== 1) throw new Error(`expected one tarball in ${packDir}, found ${tarballs.join(', ') || 'none'}:\n${packed}`);
    tarball = join(packDir, tarballs[0]!);
    const listing = await passingStep('list the tarball', 'tar', ['-tzf', tarball], scratch);
    tarballFiles = listing
      .trim()
      .split('\n')
      .map((path) => path.replace(/^package\//, ''));
    packedManifest = JSON.parse(
      await passingStep('read the packed package.json', 'tar', ['-xzOf', tarball, 'package/package.json'], scratch),
    ) as typeof packedManifest;

    const project = join(scratch, 'consumer');
    cpSync(consumerSources, project, { recursive: true });
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'frontend-consumer', private: true, type: 'module' }, null, 2)}\n`);
    await passingStep(
      'npm install the tarball',
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        tarball,
        `@types/node@${nodeTypesVersion}`,
        `msw@${workspaceManifest.devDependencies.msw}`,
        queryCore,
      ],
      project,
      // The registry is a network away: one failed fetch is tried again before the step fails.
      2,
    );
  }, 240_000);

  afterAll(async () => {
    await (mock ?? (await mockStarting.catch(() => undefined)))?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }, 30_000);

  it('holds ESM JavaScript with declarations, an exports map, a files list and no workspace link', () => {
    const manifestText = JSON.stringify(packedManifest);
    expect(manifestText).not.toContain('workspace:');
    expect(packedManifest.dependencies).toEqual(workspaceManifest.dependencies);
    expect(Object.keys(workspaceManifest.dependencies)).toEqual(['openapi-fetch']);
    // Build-time fields mean nothing to an installer (the beforePacking hook in scripts/pnpmfile.cjs).
    expect(packedManifest).not.toHaveProperty('devDependencies');
    expect(packedManifest).not.toHaveProperty('scripts');
    expect(packedManifest.type).toBe('module');
    expect(packedManifest.files).toEqual(['dist', 'README.md']);
    // publishConfig applied: every export target is a built file in the tarball, never a .ts source.
    const exportsMap = packedManifest.exports ?? {};
    expect(Object.keys(exportsMap)).toEqual(['.', './contract', './msw', './query', './package.json']);
    for (const [subpath, target] of Object.entries(exportsMap)) {
      if (typeof target === 'string') continue;
      expect(target.types, subpath).toMatch(/^\.\/dist\/.+\.d\.ts$/);
      expect(target.default, subpath).toMatch(/^\.\/dist\/.+\.js$/);
      expect(tarballFiles).toContain(target.types?.slice(2));
      expect(tarballFiles).toContain(target.default?.slice(2));
    }
    // Every module has its declarations; no TypeScript source and nothing outside dist/ but the manifest and README.
    const modules = tarballFiles.filter((path) => path.endsWith('.js'));
    expect(modules.length).toBeGreaterThan(5);
    for (const module of modules) expect(tarballFiles).toContain(module.replace(/\.js$/, '.d.ts'));
    expect(tarballFiles.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
    expect(tarballFiles.filter((path) => !path.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
  });

  it('needs nothing from the workspace: no module or manifest of the installed package names @invoice-api/contract', () => {
    const installed = join(scratch, 'consumer/node_modules/@invoice-api/client');
    // The README may explain the name; code and manifest must not depend on it.
    const code = listFiles(installed).filter((file) => !file.endsWith('README.md'));
    expect(code.length).toBe(tarballFiles.length - 1);
    const naming = code.filter((file) => readFileSync(file, 'utf8').includes('@invoice-api/contract'));
    expect(naming.map((file) => relative(installed, file))).toEqual([]);
  });

  // The entry points' declarations and those they import are checked, not only the consumer's use of them.
  const clientDeclarations = ['dist/client/src/index.d.ts', 'dist/client/src/query/index.d.ts', 'dist/contract/generated/schema.d.ts'].map(
    (file) => `node_modules/@invoice-api/client/${file}`,
  );

  it('type-checks a strict consumer with moduleResolution nodenext (Node types, no DOM) and emits it', () => {
    expect(typeCheckConsumer('tsc, strict, nodenext', 'tsconfig.nodenext.json')).toEqual(expect.arrayContaining(['node-main.ts', ...clientDeclarations]));
  }, 120_000);

  it('type-checks the same consumer with moduleResolution bundler (DOM, no Node types)', () => {
    expect(typeCheckConsumer('tsc, strict, bundler', 'tsconfig.bundler.json')).toEqual(expect.arrayContaining(['browser-main.ts', ...clientDeclarations]));
  }, 120_000);

  it('runs in Node against the mock', async () => {
    const { url } = await mockStarting;
    const output = await passingStep('run in Node against the mock', process.execPath, ['out-node/node-main.js', url], join(scratch, 'consumer'));
    const summary = lastJsonLine(output);
    expect(summary).toMatchObject(expectedSummary);
    expect(summary).toMatchObject({ total: expect.any(Number), users: expect.any(Number), statusOperators: expect.arrayContaining(['=', 'in']) });
    expect((summary as { validatedUsers: number }).validatedUsers).toBe((summary as { users: number }).users);
  }, 120_000);

  it('runs the TanStack Query calls, then an override, on setupServer(...createHandlers()) with msw installed beside it, type-checked strictly', async () => {
    expect(typeCheckConsumer('tsc, strict, nodenext, with msw', 'tsconfig.msw.json').sort()).toEqual(['msw-main.ts', 'query.ts']);
    const output = await passingStep('run the MSW handlers in Node', process.execPath, ['out-node/msw-main.js'], join(scratch, 'consumer'));
    expect(lastJsonLine(output)).toEqual({
      // The same TanStack Query calls as against the mock: three pages, the first without a cursor.
      query: { pages: 3, cursors: [null, expect.any(String), expect.any(String)], invoiceNumber: expect.any(String), searchInvalidated: true },
      searchStatus: 200,
      invoices: expect.any(Number),
      getInvoiceStatus: 404,
      refusedStatus: 400,
      refusedField: 'amount',
    });
    expect((lastJsonLine(output) as { invoices: number }).invoices).toBeGreaterThan(0);
  }, 120_000);

  it('runs the TanStack Query consumer (@invoice-api/client/query) in Node against the mock', async () => {
    const { url } = await mockStarting;
    const output = await passingStep(
      'run the query consumer in Node against the mock',
      process.execPath,
      ['out-node/query-main.js', url],
      join(scratch, 'consumer'),
    );
    const summary = lastJsonLine(output) as { cursors: Array<string | null> };
    expect(summary).toMatchObject({ pages: 3, invoiceNumber: expect.any(String), searchInvalidated: true });
    // The first page sends no cursor; the next ones send the cursor the previous page answered.
    expect(summary.cursors).toHaveLength(3);
    expect(summary.cursors[0]).toBeNull();
    expect(summary.cursors.slice(1)).toEqual([expect.any(String), expect.any(String)]);
  }, 120_000);

  it('bundles for the browser without any node: import, and the bundle runs against the mock', async () => {
    const project = join(scratch, 'consumer');
    const bundle = join(project, 'out-browser/app.js');
    process.stdout.write('client tarball: esbuild --bundle --platform=browser browser-main.ts\n');
    const result = await build({
      absWorkingDir: project,
      entryPoints: ['browser-main.ts'],
      outfile: bundle,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    // Only the consumer, the installed client and openapi-fetch went in, all from the scratch project.
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
    expect(inputs.filter((input) => !/^(?:summary|browser-main)\.ts$|^node_modules\/(?:@invoice-api\/client\/dist|openapi-fetch)\//.test(input))).toEqual([]);
    expect(inputs).toContain('node_modules/@invoice-api/client/dist/contract/generated/operations.js');
    expect(readFileSync(bundle, 'utf8')).not.toMatch(/(?:from|import|require)\s*\(?\s*["']node:/);

    const { url } = await mockStarting;
    const runBundle = `const { summary } = await import(${JSON.stringify(pathToFileURL(bundle).href)}); console.log(JSON.stringify(await summary(${JSON.stringify(url)})));`;
    const output = await passingStep('run the browser bundle against the mock', process.execPath, ['--input-type=module', '-e', runBundle], project);
    expect(lastJsonLine(output)).toMatchObject(expectedSummary);
  }, 120_000);

  it('leaves the response validators out of the main chunk when the bundler splits code: a bundle that never enables them never loads them', async () => {
    const project = join(scratch, 'consumer');
    const validators = 'node_modules/@invoice-api/client/dist/client/generated/response-validators.js';
    const result = await build({
      absWorkingDir: project,
      entryPoints: ['browser-main.ts'],
      outdir: join(project, 'out-split'),
      bundle: true,
      splitting: true,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    const chunks = Object.entries(result.metafile.outputs).filter(([path]) => path.endsWith('.js'));
    const entry = chunks.find(([, output]) => output.entryPoint === 'browser-main.ts');
    expect(Object.keys(entry?.[1].inputs ?? {})).not.toContain(validators);
    expect(chunks.filter(([, output]) => Object.keys(output.inputs).includes(validators))).toHaveLength(1);
  }, 120_000);
});
