// The command line of `pnpm mock:stateful`: defaults, each option, and a clear refusal of bad input.
import { describe, expect, it } from 'vitest';
import { configFor, defaultMockPort, parseMockArguments, UsageError, type MockArguments } from '../../src/mock/cli.js';
import { defaultFixture } from '../../src/mock/stateful-mock.js';

function parsed(argv: string[]): MockArguments {
  const result = parseMockArguments(argv);
  if (result === 'help') throw new Error('expected arguments, got --help');
  return result;
}

describe('pnpm mock:stateful arguments', () => {
  it('defaults to the demo fixture on loopback port 4010, unless PORT or HOST say otherwise', () => {
    const args = parsed([]);
    expect(args.fixture).toEqual(defaultFixture);
    expect(configFor(args, {})).toMatchObject({ host: '127.0.0.1', port: defaultMockPort });
    expect(configFor(args, { PORT: '4999', HOST: '::1' })).toMatchObject({ host: '::1', port: 4999 });
  });

  it('takes the seed, the sizes, the port and the host (after a -- too)', () => {
    const args = parsed(['--', '--seed', '7', '--invoices=20000', '--deliveries', '300', '--port', '0', '--host', '0.0.0.0']);
    expect(args).toEqual({ port: 0, host: '0.0.0.0', fixture: { seed: 7, invoices: 20_000, deliveries: 300 } });
    expect(configFor(args, { PORT: '4999' })).toMatchObject({ host: '0.0.0.0', port: 0 });
    expect(parseMockArguments(['--help'])).toBe('help');
  });

  it.each([
    [['--seed=-1'], /--seed must be a whole number/],
    [['--invoices', 'many'], /--invoices must be a whole number from 0 to 2000000/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--host', ' '], /--host must not be empty/],
    [['--size', '3'], /Unknown option '--size'/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseMockArguments(argv)).toThrow(UsageError);
    expect(() => parseMockArguments(argv)).toThrow(message);
  });
});
