// What the operations commands (db:backup, db:restore, db:copy) share: how they read their arguments,
// report progress and fail. Progress goes to stderr, so stdout carries only the result (a summary a
// script may keep); a failure is one line naming the cause, never a stack (unless DEBUG_STACK=1).
import { access, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadDatabaseConfig } from '../config.js';
import { defaultPgliteDataDir } from '../db/database.js';
import { DataDirectoryInUseError } from '../db/single-writer-lock.js';

/** A failure the user can act on: its message is the whole report. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}

/** Asked for --help: print the usage and exit 0. */
class HelpRequested extends Error {}

/**
 * Runs a command's `main` and turns its outcome into an exit code: 0, or 1 with `<command>: <message>`
 * on stderr. Errors that are not CommandErrors are unexpected; their first line is printed all the same.
 */
export async function runCommand(command: string, usage: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${usage}\n`);
      return;
    }
    if (process.env.DEBUG_STACK === '1' && error instanceof Error) process.stderr.write(`${error.stack ?? error.message}\n`);
    process.stderr.write(`${command}: ${describeFailure(error)}\n`);
    process.exitCode = 1;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof CommandError || error instanceof ConfigError || error instanceof DataDirectoryInUseError) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

/** parseArgs with --help, and every mistake (unknown option, missing value) as a CommandError. */
export function parseCommandLine<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    const parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    if ((parsed.values as Record<string, unknown>).help === true) throw new HelpRequested();
    return parsed;
  } catch (error) {
    if (error instanceof HelpRequested) throw error;
    // parseArgs explains at length; its first sentence names the mistake.
    const message = error instanceof Error ? error.message : String(error);
    throw new CommandError(`${message.split(/\.\s/)[0]}; --help shows the usage.`);
  }
}

/** Writes one progress line to stderr (long work says what it is doing, and how far it got). */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * A path the user typed, relative to the directory they typed it in: pnpm runs scripts from the
 * repository root but says where it was started in INIT_CWD.
 */
export function userPath(path: string): string {
  return isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** The embedded database's directory: --data-dir, else PGLITE_DATA_DIR, else `.data/pglite`. */
export function embeddedDataDir(option: string | undefined): string {
  if (option !== undefined) return userPath(option);
  const config = loadDatabaseConfig();
  if (config.url !== undefined) {
    throw new CommandError(
      config.url === 'memory:'
        ? 'DATABASE_URL is memory:, which keeps nothing on disk; unset it (or pass --data-dir) to name the embedded database.'
        : 'DATABASE_URL names a PostgreSQL database: back that up with pg_dump (packages/server/README.md, "Backups"); unset it or pass --data-dir to name the embedded database.',
    );
  }
  return config.pgliteDataDir ?? defaultPgliteDataDir;
}

/** Megabytes with one decimal, for progress lines. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

export async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
