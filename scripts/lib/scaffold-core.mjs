// The decisions of `pnpm scaffold`, on file contents rather than files, so each has a fast test:
// which operations lack a handler, which tag file each stub goes to, the stub's text, and the two
// lines that wire it into packages/server/src/operations/index.ts. It only ever adds text.

// `import * as invoices from './invoices.js';` and `    getInvoice: invoices.getInvoice,`
const namespaceImport = /^import \* as ([A-Za-z_$][\w$]*) from '\.\/([\w.-]+)\.js';$/;
const wiringLine = /^ {4}([A-Za-z_$][\w$]*): ([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*),$/;

/** `company-clients` -> `companyClients`: the namespace a new tag file is imported as. */
export function namespaceOf(tag) {
  const name = tag.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, letter) => letter.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
  return /^[0-9]/.test(name) ? `tag${name}` : name;
}

/** `Company Clients` -> `company-clients`: the file name (without `.ts`) of a new tag. */
export function fileOf(tag) {
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** What index.ts imports and wires, or an error saying why scaffold cannot edit it safely. */
export function readWiring(indexSource) {
  const lines = indexSource.split('\n');
  const imports = new Map(); // namespace -> file (without .js)
  const wired = new Map(); // operationId -> namespace
  let lastImportLine = -1;
  let lastWiringLine = -1;
  lines.forEach((line, index) => {
    const imported = namespaceImport.exec(line);
    if (imported) {
      imports.set(imported[1], imported[2]);
      lastImportLine = index;
    }
    const wiring = wiringLine.exec(line);
    if (wiring) {
      if (wiring[1] !== wiring[3])
        throw new Error(`index.ts wires ${wiring[1]} to ${wiring[2]}.${wiring[3]}: scaffold expects \`operationId: file.operationId\``);
      wired.set(wiring[1], wiring[2]);
      lastWiringLine = index;
    }
  });
  if (lastImportLine < 0 || lastWiringLine < 0) {
    throw new Error(
      "index.ts has no `import * as x from './x.js'` line or no `operationId: x.operationId,` line in createHandlers(): scaffold cannot wire a new handler safely",
    );
  }
  return { lines, imports, wired, lastImportLine, lastWiringLine };
}

/**
 * Where each unwired operation's handler goes: the file that already holds its tag's handlers,
 * else `<tag>.ts`. `entries` are operation table entries.
 */
export function planStubs(entries, wiring) {
  const fileOfTag = new Map();
  for (const entry of entries) {
    const namespace = wiring.wired.get(entry.operationId);
    if (namespace !== undefined && !fileOfTag.has(entry.tag)) fileOfTag.set(entry.tag, wiring.imports.get(namespace));
  }
  return entries
    .filter((entry) => !wiring.wired.has(entry.operationId))
    .map((entry) => {
      const file = fileOfTag.get(entry.tag) ?? fileOf(entry.tag);
      const namespace = [...wiring.imports].find(([, imported]) => imported === file)?.[0] ?? namespaceOf(file);
      return { entry, file, namespace };
    });
}

/** Operations wired in index.ts that the spec no longer has: scaffold never deletes, it says so. */
export function staleOperations(entries, wiring) {
  const ids = new Set(entries.map((entry) => entry.operationId));
  return [...wiring.wired.keys()].filter((operationId) => !ids.has(operationId));
}

/**
 * The documented error a stub answers. 500 first: the spec documents it as "the service failed;
 * repeating the request does not help", which is what an unimplemented operation is, and clients do
 * not retry it. 503 only when an operation lacks a 500: it promises a retry would help. 501 is never
 * an option: no operation documents it, and the service must stay spec-valid.
 */
export function stubError(entry) {
  const statuses = entry.statuses ?? [];
  if (statuses.includes(500)) return { status: 500, code: 'internal_error' };
  if (statuses.includes(503)) return { status: 503, code: 'service_unavailable' };
  throw new Error(`${entry.operationId} documents neither 500 nor 503: scaffold has no spec-valid answer for its stub`);
}

export function stubSource(entry) {
  const { status, code } = stubError(entry);
  const message = `${entry.operationId} (${entry.method} ${entry.path}) is not implemented yet.`;
  return `
/**
 * ${entry.summary ?? entry.operationId} (\`${entry.method} ${entry.path}\`).
 * Stub written by \`pnpm scaffold\`: answers the documented ${status} until it is implemented.
 */
export const ${entry.operationId}: Handler<'${entry.operationId}', RequestContext> = async () => {
  return { status: ${status}, body: { error: '${code}', message: '${message.replace(/[\\']/g, '\\$&')}' } };
};
`;
}

/** The imports a stub needs, added to an existing tag file that lacks them. */
export function missingImports(fileSource) {
  const needed = [];
  if (!/import[^;]*\bHandler\b[^;]*from '@invoice-api\/contract';/.test(fileSource)) needed.push("import type { Handler } from '@invoice-api/contract';");
  if (!/import[^;]*\bRequestContext\b[^;]*from '\.\.\/context\.js';/.test(fileSource)) needed.push("import type { RequestContext } from '../context.js';");
  return needed;
}

/** Adds imports after a file's last import statement (or below its header comment). */
export function withImports(fileSource, imports) {
  if (imports.length === 0) return fileSource;
  const lines = fileSource.split('\n');
  const firstCode = lines.findIndex(
    (line) => line !== '' && !line.startsWith('//') && !line.startsWith('import') && !/^\s/.test(line) && !line.startsWith('}'),
  );
  const head = firstCode < 0 ? lines.length : firstCode;
  // An import statement ends on the line with `from '...';` (or is `import '...';`).
  let insertAt = -1;
  for (let index = 0; index < head; index += 1) if (/(from '[^']+'|^import '[^']+');$/.test(lines[index])) insertAt = index + 1;
  if (insertAt < 0)
    insertAt = Math.max(
      0,
      lines.findIndex((line) => !line.startsWith('//')),
    );
  lines.splice(insertAt, 0, ...imports);
  return lines.join('\n');
}

export function newTagFile(tag) {
  return `// Operations of the \`${tag}\` tag. Created by \`pnpm scaffold\`: replace each stub's body.
import type { Handler } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
`;
}

/** index.ts with an import for each new tag file and one wiring line per stub. */
export function wire(wiring, stubs) {
  const lines = [...wiring.lines];
  const newImports = [
    ...new Map(
      stubs.filter((stub) => !wiring.imports.has(stub.namespace)).map((stub) => [stub.namespace, `import * as ${stub.namespace} from './${stub.file}.js';`]),
    ).values(),
  ];
  const newWiring = stubs.map((stub) => `    ${stub.entry.operationId}: ${stub.namespace}.${stub.entry.operationId},`);
  // Wiring lines first: they sit below the imports, so the import index stays valid.
  lines.splice(wiring.lastWiringLine + 1, 0, ...newWiring);
  lines.splice(wiring.lastImportLine + 1, 0, ...newImports);
  return lines.join('\n');
}

/** Whether a tag file already declares this handler (then it is only wired, never rewritten). */
export function declaresHandler(fileSource, operationId) {
  return new RegExp(`^export (const|function|async function) ${operationId}\\b`, 'm').test(fileSource);
}
