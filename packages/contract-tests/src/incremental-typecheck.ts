// tsc over packages' tsconfig.json files as one program, as `pnpm typecheck` checks the node packages
// (scripts/typecheck.mjs), run in this process so that checking again after an edit costs only what
// the edit touched, as under `tsc --watch`: a file whose text is unchanged is not parsed and bound again,
// and TypeScript's builder checks again only the files the change can affect. A child `tsc` rebuilds
// its whole program, node_modules' declarations included, on every start.
import { isDeepStrictEqual } from 'node:util';
import ts from 'typescript';

export interface TypecheckResult {
  errorCount: number;
  /** tsc's own plain (not `--pretty`) report: `file(line,col): error TSnnnn: message` per diagnostic. */
  output: string;
}

function readConfig(configFile: string): ts.ParsedCommandLine {
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error(`cannot read ${configFile}`);
  return config;
}

/** Where a config file is says nothing about how its files are checked. */
function checkingOptions({ configFilePath: _where, ...options }: ts.CompilerOptions): ts.CompilerOptions {
  return options;
}

/** The packages' files as one program, checked again on each call with what the previous call learnt. */
export class IncrementalTypecheck {
  readonly #configFiles: readonly string[];
  readonly #reportFrom: string;
  /** Parsed source files by parse mode and path, kept for as long as their text is unchanged. */
  readonly #parsedFiles = new Map<string, ts.SourceFile>();
  #previous: ts.SemanticDiagnosticsBuilderProgram | undefined;

  /** `reportFrom`: the folder the report's file names are relative to. */
  constructor(configFiles: readonly string[], reportFrom: string) {
    if (configFiles.length === 0) throw new Error('no tsconfig.json to check');
    this.#configFiles = configFiles;
    this.#reportFrom = reportFrom;
  }

  /** The program's diagnostics, as tsc reports them. */
  check(): TypecheckResult {
    // Read again each time: the files they include change (scaffold adds one).
    const configs = this.#configFiles.map(readConfig);
    const options = checkingOptions(configs[0]!.options);
    configs.forEach((config, index) => {
      if (!isDeepStrictEqual(checkingOptions(config.options), options))
        throw new Error(`${this.#configFiles[index]} and ${this.#configFiles[0]} give different compiler options: they are not one program`);
    });
    const host = ts.createIncrementalCompilerHost(options);
    const parse = host.getSourceFile;
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
      // The same file parses differently as an ES module or a CommonJS one (NodeNext).
      const mode =
        typeof languageVersionOrOptions === 'object'
          ? `${languageVersionOrOptions.languageVersion}:${languageVersionOrOptions.impliedNodeFormat}`
          : `${languageVersionOrOptions}`;
      const key = `${mode}:${fileName}`;
      const kept = this.#parsedFiles.get(key);
      if (kept !== undefined && !shouldCreateNewSourceFile && kept.text === host.readFile(fileName)) return kept;
      const parsed = parse.call(host, fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
      if (parsed === undefined) this.#parsedFiles.delete(key);
      else this.#parsedFiles.set(key, parsed);
      return parsed;
    };
    const program = ts.createSemanticDiagnosticsBuilderProgram(
      [...new Set(configs.flatMap((config) => config.fileNames))],
      options,
      host,
      this.#previous,
      configs.flatMap((config) => ts.getConfigFileParsingDiagnostics(config)),
    );
    this.#previous = program;

    // What tsc reports, in its order: the semantic check only once the files parse and the options hold.
    const diagnostics: ts.Diagnostic[] = [...program.getConfigFileParsingDiagnostics(), ...program.getSyntacticDiagnostics()];
    if (diagnostics.length === 0) {
      diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
      if (diagnostics.length === 0) diagnostics.push(...program.getSemanticDiagnostics());
    }
    const output = ts.formatDiagnostics(diagnostics, {
      getCurrentDirectory: () => this.#reportFrom,
      getCanonicalFileName: (fileName) => fileName,
      getNewLine: () => '\n',
    });
    return { errorCount: diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error).length, output };
  }
}
