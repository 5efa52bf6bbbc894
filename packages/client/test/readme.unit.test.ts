import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** The ts blocks of the client's guide (this package's README), or of one of its `## ` sections. */
function tsBlocks(section?: string): Array<string | undefined> {
  let readme = read('../README.md');
  if (section !== undefined) {
    const start = readme.indexOf(`\n## ${section}\n`);
    if (start === -1) throw new Error(`packages/client/README.md has no section "## ${section}"`);
    const end = readme.indexOf('\n## ', start + 1);
    readme = readme.slice(start, end === -1 ? undefined : end);
  }
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]?.trim());
}

describe("the client's guide (README.md)", () => {
  it('shows examples/quick-start.ts verbatim, so the documented example is the one that is run', () => {
    expect(tsBlocks('Example (runs against the mock)')[0]).toBe(read('../examples/quick-start.ts').trim());
  });

  // Each example is run by a test of its own: quick-start.ts by contract-tests' client-example.mock.test.ts,
  // paging.ts by paging.stateful.test.ts, safe-writes.ts by client-keys.stateful.test.ts, query.ts by
  // client-query.stateful.test.ts.
  it('shows examples/paging.ts verbatim in its Paging section', () => {
    expect(tsBlocks('Paging: every item with `for await`')).toContain(read('../examples/paging.ts').trim());
  });

  it('shows examples/safe-writes.ts verbatim after the example', () => {
    expect(tsBlocks('Example (runs against the mock)')).toContain(read('../examples/safe-writes.ts').trim());
  });

  it('shows examples/query.ts verbatim in its TanStack Query section', () => {
    expect(tsBlocks('TanStack Query: `@invoice-api/client/query`')).toContain(read('../examples/query.ts').trim());
  });
});
