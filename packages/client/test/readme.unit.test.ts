import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('README', () => {
  it('shows examples/quick-start.ts verbatim, so the documented example is the one that is run', () => {
    const block = /```ts\n([\s\S]*?)```/.exec(read('../README.md'))?.[1];
    expect(block?.trim()).toBe(read('../examples/quick-start.ts').trim());
  });

  it('shows examples/paging.ts verbatim too', () => {
    const blocks = [...read('../README.md').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]?.trim());
    expect(blocks).toContain(read('../examples/paging.ts').trim());
  });

  it('shows examples/safe-writes.ts verbatim too', () => {
    const blocks = [...read('../README.md').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]?.trim());
    expect(blocks).toContain(read('../examples/safe-writes.ts').trim());
  });

  it("shows examples/query.ts verbatim in the root README's Frontend section", () => {
    const root = read('../../../README.md');
    const frontend = root.slice(root.indexOf('\n## Frontend\n'));
    const blocks = [...frontend.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]?.trim());
    expect(blocks).toContain(read('../examples/query.ts').trim());
  });
});
