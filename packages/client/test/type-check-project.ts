// Type-checks a consumer project the way `tsc -p <tsconfig>` does (same compiler, same options, the
// project's directory as the working directory), but asks for the semantic errors of the files under
// test only: a consumer's own sources and, where the tsconfig checks declaration files, the
// declarations of the package it consumes. The declarations of everything else in the program
// (@types/node, TypeScript's DOM library, @tanstack/query-core, msw...) are what most of a full
// check's time goes to and say nothing about the package: they are still parsed, resolved and
// bound, and the checker reads from them whatever the checked files use.
//
// An error can only show in a file that is not checked here if a checked file reaches into it: a
// global script (no import or export) or a `declare global` / `declare module '...'` merges into
// other files' scope. Such a checked file is reported as an error, so a clean result stays what the
// whole program's check would give for the files under test.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as TypeScript from 'typescript';

// Required, not imported: an ESM import of TypeScript's single large CommonJS file first scans all of
// it for export names, which costs more CPU than loading it.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

export interface ProjectCheck {
  /** tsc's error output: empty when the checked files type-check and the output was written. */
  errors: string;
  /** The files whose semantic errors were asked for, by absolute path. */
  checkedFiles: string[];
}

/** Whether a file's declarations can reach into another file: a global script, a global or module augmentation. */
function reachesOutside(file: TypeScript.SourceFile): boolean {
  if (!ts.isExternalModule(file)) return true;
  return file.statements.some(
    (statement) => ts.isModuleDeclaration(statement) && (ts.isStringLiteral(statement.name) || (statement.flags & ts.NodeFlags.GlobalAugmentation) !== 0),
  );
}

/**
 * Checks, then writes the program's output as tsc does (nothing under `noEmit`).
 * @param configFile the tsconfig, as `tsc -p` takes it
 * @param isUnderTest which of the program's files to check (every file's syntax errors, and the
 *   options' and global errors, are reported whatever it answers)
 */
export function typeCheckProject(configFile: string, isUnderTest: (fileName: string) => boolean): ProjectCheck {
  const projectDir = dirname(configFile);
  const configErrors: TypeScript.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
    ...ts.sys,
    getCurrentDirectory: () => projectDir,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  const host = ts.createCompilerHost(parsed?.options ?? {});
  host.getCurrentDirectory = () => projectDir;
  // As tsc parses: a TypeScript file's JSDoc only where it can bear on errors (@see, @link).
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const format = (diagnostics: readonly TypeScript.Diagnostic[]) => ts.formatDiagnostics(diagnostics, host);
  if (parsed === undefined) return { errors: format(configErrors), checkedFiles: [] };

  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    configFileParsingDiagnostics: parsed.errors,
  });
  // Declaration files the options skip (skipLibCheck) have no semantic errors to ask for.
  const checked = program.getSourceFiles().filter((file) => isUnderTest(file.fileName) && !(file.isDeclarationFile && parsed.options.skipLibCheck === true));
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...checked.flatMap((file) => program.getSemanticDiagnostics(file)),
  ];
  const reaching = checked.filter(reachesOutside).map((file) => file.fileName);
  const scopeErrors = reaching.map(
    (fileName) => `${fileName}: declares globals or augments another module, so its errors could show in files not checked here\n`,
  );
  // File by file: an emit of the whole program first asks the checker for every file's errors, the
  // libraries' declarations included. Declaration files and the libraries' files emit nothing.
  for (const file of program.getSourceFiles())
    if (!file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file)) diagnostics.push(...program.emit(file).diagnostics);
  return { errors: format(diagnostics) + scopeErrors.join(''), checkedFiles: checked.map((file) => file.fileName) };
}
