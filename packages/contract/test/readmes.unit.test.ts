// The READMEs (the root one and each guide) as a newcomer follows them: every relative link leads to a
// file that exists and, with a `#anchor`, to a heading of that file (GitHub's slugs); every `pnpm`
// command names a script that exists; and a code block that names its source file in its first line
// shows that file's text verbatim. What the blocks do when run is tested where they are run: which
// test runs or checks each block is listed in readme-blocks.unit.test.ts, which also fails on a block
// that no test covers and that does not say why it is not run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const skipped = new Set(['node_modules', '.git', 'dist', 'generated', '.data', '.dev', 'test-output', 'coverage']);

/** Every README*.md of the repository, outside dependencies and build output. */
function readmes(dir = repoRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : readmes(join(dir, entry.name));
    return /^README.*\.md$/.test(entry.name) ? [join(dir, entry.name)] : [];
  });
}

interface Line {
  text: string;
  line: number;
  /** Inside a fenced block (its fences included). */
  fenced: boolean;
  /** The block's language, as its opening fence names it (`sh`, `ts`, or empty). */
  language: string;
}

/** The lines of a Markdown text, each marked as inside a fenced block or not. */
function linesOf(markdown: string): Line[] {
  let language: string | undefined;
  return markdown.split('\n').map((text, index) => {
    const fence = /^\s*```\s*(\w*)/.exec(text);
    if (fence !== null) {
      const opened = language === undefined ? (fence[1] ?? '') : undefined;
      const line = { text, line: index + 1, fenced: true, language: opened ?? language ?? '' };
      language = opened;
      return line;
    }
    return { text, line: index + 1, fenced: language !== undefined, language: language ?? '' };
  });
}

/**
 * GitHub's anchor for a heading's text: the rendered text (code spans and links reduced to their
 * text), lower-cased, without punctuation but `-` and `_`, spaces as `-`.
 */
function slug(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings; a repeated one gets `-1`, `-2`, ... as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text, fenced } of linesOf(markdown)) {
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The links of a Markdown text outside fenced blocks and code spans: `[text](target)` and images. */
function linksOf(markdown: string): Array<{ target: string; line: number }> {
  return linesOf(markdown)
    .filter(({ fenced }) => !fenced)
    .flatMap(({ text, line }) =>
      [...text.replace(/`[^`]*`/g, '``').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => ({ target: match[1] ?? '', line })),
    );
}

const files = readmes();
const name = (file: string) => relative(repoRoot, file);

describe('the READMEs', () => {
  it('are found: the root one and a guide per reader', () => {
    expect(files.map(name)).toEqual(
      expect.arrayContaining([
        'README.md',
        'openapi/README.md',
        'packages/server/README.md',
        'packages/client/README.md',
        'packages/bench/README.md',
        'packages/robustness/README.md',
      ]),
    );
  });

  it('slug headings as GitHub does', () => {
    expect(slug('TanStack Query: `@invoice-api/client/query`')).toBe('tanstack-query-invoice-apiclientquery');
    expect(slug("What each package's tests prove")).toBe('what-each-packages-tests-prove');
    expect(slug('Safe retries: Idempotency-Key and If-Match')).toBe('safe-retries-idempotency-key-and-if-match');
    expect(slug('What `pnpm generate` makes of it')).toBe('what-pnpm-generate-makes-of-it');
    expect([...anchorsOf('# A\n\n```sh\n# not a heading\n```\n\n## A\n')]).toEqual(['a', 'a-1']);
  });

  it.each(files.map(name))('%s: every relative link leads to a file, and every #anchor to a heading', (file) => {
    const path = join(repoRoot, file);
    const broken: string[] = [];
    for (const { target, line } of linksOf(readFileSync(path, 'utf8'))) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: ...
      const [pathPart = '', anchor] = target.split('#', 2);
      const linked = pathPart === '' ? path : resolve(dirname(path), decodeURIComponent(pathPart));
      if (!linked.startsWith(repoRoot) || !existsSync(linked)) {
        broken.push(`line ${line}: ${target}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(linked).isDirectory() || !linked.endsWith('.md')) {
        broken.push(`line ${line}: ${target}: an anchor into a file that is not Markdown`);
      } else if (!anchorsOf(readFileSync(linked, 'utf8')).has(anchor)) {
        broken.push(`line ${line}: ${target}: ${name(linked)} has no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  // `pnpm <script>` in a code block or a code span: a root script, a package's script with `--filter`,
  // or one of pnpm's own commands. A renamed script breaks the guide that still names it.
  const builtins = new Set(['install', 'add', 'pack', 'publish', 'run', 'exec', 'dlx', 'docs', 'format']);
  const scriptsOf = (dir: string): Record<string, string> =>
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const packages = new Map(
    readdirSync(join(repoRoot, 'packages')).flatMap((dir) => {
      const manifest = join(repoRoot, 'packages', dir, 'package.json');
      if (!existsSync(manifest)) return [];
      return [[(JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name, scriptsOf(join(repoRoot, 'packages', dir))] as const];
    }),
  );

  /** Every `pnpm ...` command of a Markdown text: in fenced shell blocks and in code spans. */
  function pnpmCommands(markdown: string): Array<{ command: string; line: number }> {
    const commands: Array<{ command: string; line: number }> = [];
    for (const { text, fenced, language, line } of linesOf(markdown)) {
      if (fenced && language !== 'sh') continue;
      const candidates = fenced ? [text.replace(/#.*$/, '')] : [...text.matchAll(/`(pnpm [^`]*)`/g)].map((match) => match[1] ?? '');
      for (const candidate of candidates) {
        for (const match of candidate.matchAll(/(?:^|[\s;&|(]|\$\()pnpm(?:@[\d.]+)?((?:\s+[^\s;&|)]+)*)/g)) {
          commands.push({ command: `pnpm${match[1] ?? ''}`.trim(), line });
        }
      }
    }
    return commands;
  }

  it.each(files.map(name))('%s: every pnpm command names a script that exists', (file) => {
    const unknown: string[] = [];
    for (const { command, line } of pnpmCommands(readFileSync(join(repoRoot, file), 'utf8'))) {
      const words = command.split(/\s+/).slice(1);
      let scripts = scriptsOf(repoRoot);
      while (words[0] === '--silent' || words[0] === '--filter') {
        if (words.shift() === '--filter') {
          const packageName = words.shift() ?? '';
          scripts = packages.get(packageName) ?? {};
          if (!packages.has(packageName)) unknown.push(`line ${line}: ${command}: no package ${packageName}`);
        }
      }
      const script = words[0] === 'run' ? words[1] : words[0];
      if (script === undefined || script.startsWith('-') || script.startsWith('[') || script.startsWith('<')) continue;
      if (!(script in scripts) && !(words[0] !== 'run' && builtins.has(script))) unknown.push(`line ${line}: ${command}: no script ${script}`);
    }
    expect(unknown).toEqual([]);
  });

  // A ts block whose first line is `// <path of a file in the repository>` is an excerpt of that file.
  it.each(files.map(name))('%s: every excerpt that names its file is that file verbatim', (file) => {
    const markdown = readFileSync(join(repoRoot, file), 'utf8');
    const excerpts = [...markdown.matchAll(/```ts\n\/\/ ([\w./-]+\.ts)\n([\s\S]*?)```/g)];
    for (const [, source = '', excerpt = ''] of excerpts) {
      expect(existsSync(join(repoRoot, source)), `${file} quotes ${source}, which does not exist`).toBe(true);
      expect(readFileSync(join(repoRoot, source), 'utf8'), `${file} quotes ${source}`).toContain(excerpt.trim());
    }
  });
});
