#!/usr/bin/env node
// Builds what `pnpm pack` puts in the tarball (run by the `prepack` script): ESM JavaScript and type
// declarations in dist/, with the contract's browser face (its types, operation table and search
// rules) compiled in beside the client, so the packed package depends on openapi-fetch alone.
//
// It is plain tsc (the compiler API, with tsconfig.build.json), plus the two things tsc does not do:
// - rewrite the `@invoice-api/contract` specifier, which `paths` resolves at compile time, to the
//   relative path of the compiled contract, in the JavaScript and in the declarations alike;
// - copy the contract's generated `schema.d.ts`, which is a declaration file and so never emitted.
// A bundler of declarations (rollup-plugin-dts, api-extractor) would do the same with a dependency
// more; the output here is file for file what the workspace compiles.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// Required, not imported: an ESM import of TypeScript's single large CommonJS file first scans all of
// it for export names, which costs more CPU than loading it.
const ts = createRequire(import.meta.url)('typescript');

const contractName = '@invoice-api/contract';
const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(clientDir, '..');
const repoRoot = join(packagesDir, '..');
const contractEntry = join(packagesDir, 'contract/src/browser.ts');
const outDir = join(clientDir, 'dist');

function fail(message) {
  process.stderr.write(`client build: ${message}\n`);
  process.exit(1);
}

/** `../../contract/src/browser.js` as seen from a source file: the same path holds in dist/. */
function contractSpecifier(fromFile) {
  const path = relative(dirname(fromFile), contractEntry).split(sep).join('/').replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

function isContractLiteral(node) {
  return node !== undefined && ts.isStringLiteral(node) && node.text === contractName;
}

/** A transformer for both emits: every import, export and `import("...")` type of the contract. */
function rewriteContractImports(context) {
  const { factory } = context;
  return (file) => {
    if (!ts.isSourceFile(file)) return file;
    const target = factory.createStringLiteral(contractSpecifier(file.fileName), true);
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && isContractLiteral(node.moduleSpecifier)) {
        return factory.updateImportDeclaration(node, node.modifiers, node.importClause, target, node.attributes);
      }
      if (ts.isExportDeclaration(node) && isContractLiteral(node.moduleSpecifier)) {
        return factory.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, target, node.attributes);
      }
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && isContractLiteral(node.argument.literal)) {
        return factory.updateImportTypeNode(node, factory.createLiteralTypeNode(target), node.attributes, node.qualifier, node.typeArguments, node.isTypeOf);
      }
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitEachChild(file, visit, context);
  };
}

function report(diagnostics) {
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => clientDir, getNewLine: () => '\n' };
  fail(`\n${ts.formatDiagnosticsWithColorAndContext(diagnostics, host)}`);
}

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

// The generated halves (the contract's types and tables, the client's operation functions) must be
// current: a fresh clone has none, and a stale one would pack an old spec. Skips when nothing changed.
const generate = spawnSync(process.execPath, [join(repoRoot, 'scripts/generate.mjs')], { stdio: 'inherit' });
if (generate.status !== 0) fail('`pnpm generate` failed');

const parsed = ts.getParsedCommandLineOfConfigFile(
  join(clientDir, 'tsconfig.build.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => report([diagnostic]),
  },
);
if (!parsed) fail('tsconfig.build.json could not be read');
if (parsed.errors.length > 0) report(parsed.errors);

rmSync(outDir, { recursive: true, force: true });
const host = ts.createCompilerHost(parsed.options);
// As tsc parses: a TypeScript file's JSDoc only where it can bear on errors (@see, @link); the emitted
// files keep every comment all the same, copied as text.
host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, projectReferences: parsed.projectReferences });
// The declarations' own errors come with the emit, which transforms each file's declarations once.
const diagnostics = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program.getSyntacticDiagnostics(),
  ...program.getSemanticDiagnostics(),
];
if (diagnostics.length > 0) report(diagnostics);
const emitted = program.emit(undefined, undefined, undefined, false, { before: [rewriteContractImports], afterDeclarations: [rewriteContractImports] });
if (emitted.diagnostics.length > 0) report(emitted.diagnostics);

const schemaTypes = join(outDir, 'contract/generated/schema.d.ts');
mkdirSync(dirname(schemaTypes), { recursive: true });
copyFileSync(join(packagesDir, 'contract/generated/schema.d.ts'), schemaTypes);

// Any specifier left over (a form the transformer does not know) would make the tarball unusable.
const files = listFiles(outDir);
const leftover = files.filter((file) => readFileSync(file, 'utf8').includes(contractName));
if (leftover.length > 0) fail(`${contractName} is still imported by ${leftover.map((file) => relative(clientDir, file)).join(', ')}`);
process.stdout.write(`client build: ${files.length} files in ${relative(clientDir, outDir)}/ (client and the contract's browser face)\n`);
