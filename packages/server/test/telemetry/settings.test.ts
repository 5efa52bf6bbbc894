// When the process traces: only when the standard OTEL_* variables ask for it, and otherwise the
// preload loads nothing of the SDK (tracing off costs nothing but the preload's own few lines).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tracingRequested } from '../../src/telemetry/settings.js';

const run = promisify(execFile);
const serverDirectory = fileURLToPath(new URL('../..', import.meta.url));

describe('tracingRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: ' none , none ' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none,console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_TRACES_EXPORTER: 'console', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_TRACES_EXPORTER: 'console', OTEL_SDK_DISABLED: 'false' }, true],
  ])('%j: %s', (env, expected) => {
    expect(tracingRequested(env)).toBe(expected);
  });
});

describe('the preload', () => {
  // After the preload, whether the SDK's package was loaded and whether a tracer provider is registered.
  const probe = `
    import { createRequire } from 'node:module';
    import { ProxyTracerProvider, trace } from '@opentelemetry/api';
    const loaded = Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('@opentelemetry/sdk-node'));
    const provider = trace.getTracerProvider();
    const registered = provider instanceof ProxyTracerProvider && provider.getDelegateTracer('probe') !== undefined;
    console.log(JSON.stringify({ loaded, registered }));
  `;
  const afterPreload = async (env: Record<string, string>) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--import', './src/telemetry/preload.ts', '--input-type=module', '--eval', probe], {
      cwd: serverDirectory,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { loaded: boolean; registered: boolean };
  };

  it('loads no SDK without the variables, and starts it with them', async () => {
    const [off, on] = await Promise.all([afterPreload({}), afterPreload({ OTEL_TRACES_EXPORTER: 'console' })]);
    expect(off).toEqual({ loaded: false, registered: false });
    expect(on).toEqual({ loaded: true, registered: true });
  });
});
