// Prism reports every way a request or a response strays from the spec in the `sl-violations`
// header. Request violations are expected (the suite sends bad requests on purpose); a response
// violation means the answer breaks the contract, and fails the scenario.
export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export class ContractViolationError extends Error {
  override readonly name = 'ContractViolationError';
  constructor(
    readonly request: string,
    readonly violations: Violation[],
    readonly rawHeader: string,
  ) {
    super(`${request}: the response breaks the spec:\n${violations.map((v) => `  ${v.location.join('.')}: ${v.message}`).join('\n') || rawHeader}`);
  }
}

function isViolation(value: unknown): value is Violation {
  return typeof value === 'object' && value !== null && Array.isArray((value as { location?: unknown }).location);
}

/**
 * The response violations in a header value. Prism prefixes a long list with "Too many violations!"
 * and may cut it; an unreadable list that mentions a response location still counts as one.
 */
export function responseViolations(header: string | null): Violation[] {
  if (header === null || header.trim() === '') return [];
  const start = header.indexOf('[');
  let parsed: unknown;
  try {
    parsed = JSON.parse(start >= 0 ? header.slice(start) : header);
  } catch {
    return /"location":\s*\[\s*"response"/.test(header)
      ? [{ location: ['response'], severity: 'Error', code: 'unreadable', message: header.slice(0, 500) }]
      : [];
  }
  const list = Array.isArray(parsed) ? parsed.filter(isViolation) : [];
  return list.filter((violation) => violation.location[0] === 'response');
}

const missingHeader = /^Response header must have required property '([^']+)'$/;

/**
 * Prism's mock checks its own answers' required headers case-sensitively and reports `Retry-After`
 * missing while it sends it (Prism 5.14.2). A "missing" header the response does carry is no breach.
 */
function isFalseMissingHeader(violation: Violation, headers: Headers): boolean {
  const name = missingHeader.exec(violation.message)?.[1];
  return violation.location[1] === 'header' && name !== undefined && headers.has(name);
}

/** A fetch that rejects with ContractViolationError when Prism found the answer off-spec. */
export function violationCheckingFetch(inner: (request: Request) => Promise<Response> = (request) => fetch(request)) {
  return async (request: Request): Promise<Response> => {
    const response = await inner(request);
    const header = response.headers.get('sl-violations');
    const violations = responseViolations(header).filter((violation) => !isFalseMissingHeader(violation, response.headers));
    if (violations.length > 0) throw new ContractViolationError(`${request.method} ${new URL(request.url).pathname}`, violations, header ?? '');
    return response;
  };
}
