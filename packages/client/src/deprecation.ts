// Deprecation warnings: once per operation per client, a call to an operation the spec marks
// deprecated, or one whose answer carries a `Deprecation` header (RFC 9745; the service sends it, with
// `Sunset` and a `Link` to the docs, when a request uses a deprecated operation, parameter or body
// property), is reported to the `onDeprecation` hook, or by default with one `console.warn`. Once,
// because a warning per call would bury everything else in a busy console; per client, so that each
// client (each test) starts fresh.
import { operationTable, type DeprecationFacts, type OperationId } from '@invoice-api/contract';

export interface DeprecationWarning {
  operationId: OperationId;
  /** `spec`: the generated spec marks the operation deprecated; `header`: the answer carried `Deprecation`. */
  source: 'spec' | 'header';
  /** When it is or became deprecated, as an ISO date-time (`x-deprecated-since`, or the header's date). */
  deprecatedSince: string | undefined;
  /** From when it may stop working, as an ISO date-time (`x-sunset`, or the `Sunset` header); undefined when not told. */
  sunset: string | undefined;
  /** Where the deprecation is explained (the `Link` with `rel="deprecation"`, absolute), when known. */
  link: string | undefined;
  /** One readable line saying all of the above. */
  message: string;
}

export type OnDeprecation = (warning: DeprecationWarning) => void;

/** Told of every answer the transport gets; reports each operation's deprecation once. */
export type DeprecationNotifier = (operationId: OperationId, response: Response) => void;

/** The operation's own notice in the spec, read as its general type (while nothing is deprecated, each entry's is typed `null`). */
export type SpecDeprecation = (operationId: OperationId) => DeprecationFacts | null;

const fromTable: SpecDeprecation = (operationId) => {
  const facts: { readonly deprecation: DeprecationFacts | null } = operationTable[operationId];
  return facts.deprecation;
};

const defaultWarn: OnDeprecation = (warning) => console.warn(warning.message);

/** `@1798675200` (an RFC 9745 structured-field Date) as an ISO date-time; undefined when it is not one. */
function structuredDate(value: string | null): string | undefined {
  const match = value === null ? null : /^@(-?\d+)$/.exec(value.trim());
  return match ? new Date(Number(match[1]) * 1000).toISOString() : undefined;
}

function httpDate(value: string | null): string | undefined {
  const time = value === null ? Number.NaN : Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The target of the `Link` whose `rel` includes `deprecation`, resolved against the answer's URL. */
function deprecationLink(value: string | null, base: string): string | undefined {
  for (const match of (value ?? '').matchAll(/<([^>]*)>([^,]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2] ?? '')?.[1] ?? '';
    if (!rel.toLowerCase().split(/\s+/).includes('deprecation')) continue;
    try {
      return new URL(match[1] ?? '', base || undefined).href;
    } catch {
      return match[1];
    }
  }
  return undefined;
}

function warningOf(operationId: OperationId, response: Response, spec: DeprecationFacts | null): DeprecationWarning | undefined {
  const header = response.headers.get('Deprecation');
  let warning: Omit<DeprecationWarning, 'message'>;
  if (header !== null) {
    warning = {
      operationId,
      source: 'header',
      deprecatedSince: structuredDate(header),
      sunset: httpDate(response.headers.get('Sunset')),
      link: deprecationLink(response.headers.get('Link'), response.url),
    };
  } else if (spec !== null && spec.operation !== null) {
    const { since, sunset } = spec.operation;
    const link = response.url ? new URL(spec.link, response.url).href : spec.link;
    warning = { operationId, source: 'spec', deprecatedSince: `${since}T00:00:00.000Z`, sunset: `${sunset}T00:00:00.000Z`, link };
  } else {
    return undefined;
  }
  const what = warning.source === 'spec' ? 'is deprecated' : 'was answered with a Deprecation header (the call uses something deprecated)';
  const since = warning.deprecatedSince ? ` since ${warning.deprecatedSince.slice(0, 10)}` : '';
  const sunset = warning.sunset ? `; it may stop working from ${warning.sunset.slice(0, 10)}` : '';
  const link = warning.link ? `; see ${warning.link}` : '';
  return { ...warning, message: `@invoice-api/client: ${operationId} ${what}${since}${sunset}${link}` };
}

/**
 * A notifier for one client: `onDeprecation` (default: console.warn of the message) is called at most
 * once per operationId. `spec` is injectable for tests of a spec that deprecates something.
 */
export function deprecationNotifier(onDeprecation: OnDeprecation = defaultWarn, spec: SpecDeprecation = fromTable): DeprecationNotifier {
  const warned = new Set<OperationId>();
  return (operationId, response) => {
    if (warned.has(operationId)) return;
    const warning = warningOf(operationId, response, spec(operationId));
    if (warning === undefined) return;
    warned.add(operationId);
    onDeprecation(warning);
  };
}
