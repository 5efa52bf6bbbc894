#!/usr/bin/env node
// Compiles the service's commands to JavaScript, so that production (and `pnpm start`) runs plain
// `node` on them, with no TypeScript loader at run time:
//   packages/server/dist/main.js       the service (src/main.ts)
//   packages/server/dist/mock-cli.js   the stateful mock (src/mock/cli.ts)
//   packages/server/dist/token-cli.js  the development token command (src/dev/token-cli.ts)
//   packages/server/dist/db-*.js       the database commands (src/db/check-totals-cli.ts, src/ops/*.ts)
//   packages/server/dist/telemetry-preload.js  tracing's `--import` preload (src/telemetry/preload.ts)
//   packages/server/dist/chunk-*.js    code they share or load later
// each with a source map, so that stack traces (node --enable-source-maps) name the .ts lines.
//
// esbuild rather than tsc: the workspace packages export their TypeScript sources (the contract's
// `./src/index.ts`), which Node cannot load; a bundle takes them, and the generated code, in one
// step and without a second package layout, in well under a second. npm dependencies stay external
// (imported from node_modules at run time, as they are under tsx). Types are not checked here:
// that is `pnpm typecheck`.
//
// Needs the generated code (`node scripts/generate.mjs` first). Skips the work when no input of the
// last build changed (`--force` builds anyway), so `pnpm start` can call it first at almost no cost.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'packages/server/dist');
const stampFile = join(outDir, '.inputs.json');
const entryPoints = {
  main: join(root, 'packages/server/src/main.ts'),
  'mock-cli': join(root, 'packages/server/src/mock/cli.ts'),
  'token-cli': join(root, 'packages/server/src/dev/token-cli.ts'),
  'db-check-totals': join(root, 'packages/server/src/db/check-totals-cli.ts'),
  'db-backup': join(root, 'packages/server/src/ops/backup.ts'),
  'db-restore': join(root, 'packages/server/src/ops/restore.ts'),
  'db-copy': join(root, 'packages/server/src/ops/copy.ts'),
  'telemetry-preload': join(root, 'packages/server/src/telemetry/preload.ts'),
};
/** Besides the sources a bundle reads: what decides how they are compiled. */
const toolInputs = [fileURLToPath(import.meta.url), join(root, 'pnpm-lock.yaml'), join(root, 'tsconfig.base.json')];

/** The compiled file of each command, for callers (`pnpm start`, tests, the bench). */
export const builtEntries = Object.fromEntries(Object.keys(entryPoints).map((name) => [name, join(outDir, `${name}.js`)]));

function digest(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** True when every output exists and every input of the last build is unchanged. */
export function buildIsCurrent() {
  if (!existsSync(stampFile) || !Object.values(builtEntries).every((file) => existsSync(file))) return false;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  const files = Object.entries(recorded);
  if (!toolInputs.every((file) => relative(root, file) in recorded)) return false;
  return files.every(([file, hash]) => existsSync(join(root, file)) && digest(join(root, file)) === hash);
}

/**
 * Rewrites `import.meta.url` in a bundled module to the URL of its source file, computed from the
 * bundle's own location: the modules find files next to their sources (`../generated/openapi.json`,
 * `.data/pglite` at the repository root), and a bundle in another directory would otherwise look
 * beside itself. Relative, so a moved checkout keeps working. The entry point keeps its own URL:
 * that is how it knows it was started as a command (runtime/entry-point.ts).
 */
function sourceLocationPlugin(entryFiles) {
  return {
    name: 'source-location',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, (args) => {
        if (args.path.includes('/node_modules/') || entryFiles.has(args.path)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const fromBundle = relative(outDir, args.path).split('\\').join('/');
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
          loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js',
        };
      });
    },
  };
}

/** Workspace packages (`@invoice-api/*`) and relative imports are bundled; npm packages are not. */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@invoice-api/') ? undefined : { external: true }));
  },
};

export async function buildServer({ force = false } = {}) {
  if (!force && buildIsCurrent()) return { built: false, ms: 0 };
  const started = Date.now();
  const { build } = await import('esbuild');
  // Old chunks would otherwise pile up: their names carry a hash of their content.
  rmSync(outDir, { recursive: true, force: true });
  const entries = new Set(Object.values(entryPoints));
  const result = await build({
    entryPoints,
    outdir: outDir,
    absWorkingDir: root,
    bundle: true,
    // Shared code and what an entry imports dynamically go to chunks: main.ts loads the service and
    // its libraries only after the port check.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [npmPackagesExternal, sourceLocationPlugin(entries)],
  });
  const inputs = new Set([...toolInputs.map((file) => relative(root, file)), ...Object.keys(result.metafile.inputs)]);
  writeFileSync(stampFile, JSON.stringify(Object.fromEntries([...inputs].sort().map((file) => [file, digest(join(root, file))]))));
  return { built: true, ms: Date.now() - started };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { built, ms } = await buildServer({ force: process.argv.includes('--force') });
  // On stderr, and nothing when up to date: stdout belongs to the command run after it.
  process.stderr.write(built ? `build: ${relative(root, outDir)} in ${ms} ms\n` : '');
}
