// One vitest project for the whole contract suite (the root config's `projects: ['packages/*']` does
// not load nested projects, so the targets are not separate projects): the global setup starts the
// targets CONTRACT_TARGET selects (default mock, proxy, service and stateful-mock), and the scenario files iterate
// over them. Which files run is chosen here by target, never by skipping inside a file:
//   *.all.test.ts       every target (stateless: shapes, auth, validation errors)
//   *.mock.test.ts      the mock only (each documented answer asked for with Prefer)
//   *.stateful.test.ts  targets that keep state (the service, directly and through the proxy; the stateful mock)
//   *.service.test.ts   when the service is a target: files that start services of their own
//   *.stateful-mock.test.ts  when the stateful mock is a target: files that start a stateful mock of their own
//   tools/*.test.ts     need no target (the proxy-mismatch proof, spec:diff)
import { defineConfig } from 'vitest/config';
import { isStateful, selectedTargetNames } from './src/targets.js';

const targets = selectedTargetNames();
const include = ['test/*.all.test.ts', 'test/tools/*.test.ts'];
if (targets.includes('mock')) include.push('test/*.mock.test.ts');
if (targets.some(isStateful)) include.push('test/*.stateful.test.ts');
if (targets.includes('service')) include.push('test/*.service.test.ts');
if (targets.includes('stateful-mock')) include.push('test/*.stateful-mock.test.ts');

export default defineConfig({
  test: {
    name: 'contract-tests',
    include,
    globalSetup: ['./src/global-setup.ts'],
    // Upper bounds, not waits: a test that starts Prism itself needs room on a loaded 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 150_000,
    // One module graph per worker, not per file: no file here mocks a module or stubs a global, and the
    // MSW servers close after their file.
    isolate: false,
  },
});
