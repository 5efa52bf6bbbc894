// The targets one scenario suite runs against, chosen by CONTRACT_TARGET (a comma list; default: all
// four): the Prism mock, the service behind Prism's proxy, the service, and the stateful mock
// (`pnpm mock:stateful`: the service's app on an in-memory fixture, as a frontend team runs it). The global setup starts what the chosen targets need and hands their
// addresses to the test files through vitest's provide/inject.
export const targetNames = ['mock', 'proxy', 'service', 'stateful-mock'] as const;
export type TargetName = (typeof targetNames)[number];

export interface Target {
  name: TargetName;
  baseUrl: string;
  /** Keeps state between calls (the real service, or the stateful mock): stateful scenarios run only here. */
  stateful: boolean;
  /** Answers carry Prism's `sl-violations` header, checked on every call. */
  validatedByPrism: boolean;
  /** The development key file the service verifies tokens with (stateful targets only). */
  keyFile?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    contractTargets: Target[];
  }
}

/** The targets asked for by CONTRACT_TARGET, in a fixed order; throws on a name it does not know. */
export function selectedTargetNames(value = process.env.CONTRACT_TARGET): TargetName[] {
  const asked = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (asked.length === 0) return [...targetNames];
  const unknown = asked.filter((name) => !(targetNames as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`CONTRACT_TARGET: unknown target(s) ${unknown.join(', ')}; use ${targetNames.join(', ')}`);
  return targetNames.filter((name) => asked.includes(name));
}

export const isStateful = (name: TargetName): boolean => name !== 'mock';
