// A new PGlite data directory starts from a copy of a freshly initialised cluster instead of from
// initdb: initdb runs PostgreSQL's bootstrap in WebAssembly, most of a first start's CPU, and its
// result is the same files every time for one PGlite build. The copy is PGlite's own `dumpDataDir`
// of a cluster initialised in memory, made once per PGlite version and kept in `.data/` beside the
// default data directory (ignored by git, as trusted as the data itself), for every later directory
// of this checkout: tests, restores, a second instance's directory.
//
// Kept as kept-dump.ts keeps files: never half a file for a process starting beside the one writing it;
// a checkout where it cannot be written (read-only) makes one per process, in memory.
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { readOrMakeKeptDump } from './kept-dump.js';

/** `.data/` at the repository root (this file is packages/server/src/db/pglite-cluster-template.ts). */
const templateDirectory = fileURLToPath(new URL('../../../../.data/', import.meta.url));

/** The PGlite version the server pins: a template is only valid for the build that wrote it. */
async function pgliteVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
  const version = manifest.dependencies['@electric-sql/pglite'];
  if (version === undefined) throw new Error('the server does not depend on @electric-sql/pglite');
  return version;
}

/** The template's file, named by the PGlite version. */
export async function clusterTemplatePath(): Promise<string> {
  return join(templateDirectory, `pglite-cluster-${await pgliteVersion()}.tar`);
}

/** initdb in memory, dumped without compression (the template is read by every new cluster). */
async function initialisedCluster(): Promise<Blob> {
  const pglite = await PGlite.create();
  try {
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}

const templates = new Map<string, Promise<Blob>>();

/** A dump of a freshly initialised cluster at `path` (default: clusterTemplatePath()), read or made once per process. */
export async function freshClusterTemplate(path?: string): Promise<Blob> {
  const file = path ?? (await clusterTemplatePath());
  let template = templates.get(file);
  if (template === undefined) {
    template = readOrMakeKeptDump(file, initialisedCluster);
    templates.set(file, template);
    // A failure is not kept: the next new cluster tries again.
    template.catch(() => templates.delete(file));
  }
  return template;
}

/** True when `dataDir` holds no cluster yet (PostgreSQL writes PG_VERSION first among its files). */
export async function holdsNoCluster(dataDir: string): Promise<boolean> {
  try {
    await access(join(dataDir, 'PG_VERSION'));
    return false;
  } catch {
    return true;
  }
}

/**
 * The template for a new cluster: in memory (`dataDir` undefined) or in a directory with no cluster
 * yet; undefined when the directory has one or no template can be had.
 */
export async function templateFor(dataDir: string | undefined, templatePath?: string): Promise<Blob | undefined> {
  if (dataDir !== undefined && !(await holdsNoCluster(dataDir))) return undefined;
  try {
    return await freshClusterTemplate(templatePath);
  } catch {
    return undefined;
  }
}
