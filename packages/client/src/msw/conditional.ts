// If-Match and If-None-Match in the MSW handlers: a value that is not `*` or a list of entity tags is
// refused as the service refuses it (If-Match on every operation, If-None-Match where the operation
// declares it, as preconditions/middleware.ts reads them), and a GET or HEAD whose If-None-Match names
// the ETag of the answer the handler would give gets the operation's documented 304 instead: what a
// frontend caching against the mock meets in production. Whether a tag is current against stored
// state is the stateful mock's to know; here the answer's own ETag is the current one.
import { entityTagListProblem, ifMatchHeader, ifNoneMatchHeader, noneMatchNames, parseEntityTagList, type OperationFacts } from '@invoice-api/contract';
import { documentedAnswer, type ChosenAnswer, type OperationSource } from './answers.js';
import { invalid, type Refusal } from './refusals.js';

/** The service's 400 for a malformed If-Match, or If-None-Match where the operation takes it. */
export function preconditionRefusal(facts: OperationFacts, headers: Headers): Refusal | undefined {
  const checked = [ifMatchHeader, ...(facts.headerParams.some((header) => header.name === ifNoneMatchHeader) ? [ifNoneMatchHeader] : [])];
  for (const name of checked) {
    const value = headers.get(name);
    if (value !== null && parseEntityTagList(value) === undefined) return invalid(entityTagListProblem(name));
  }
  return undefined;
}

/** The header named `name` of `headers`, whatever its case. */
function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.entries(headers).find(([key]) => key.toLowerCase() === lower)?.[1];
}

/**
 * The operation's 304, with the answer's ETag, when `request` is a GET or HEAD whose If-None-Match
 * names that ETag (or is `*`) and the operation documents a 304; otherwise `answer` as it is.
 */
export function conditionalAnswer(source: OperationSource, request: Request, answer: ChosenAnswer): ChosenAnswer {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || answer.status < 200 || answer.status > 299) return answer;
  if (source.answers.answers['304'] === undefined) return answer;
  const condition = request.headers.get(ifNoneMatchHeader);
  const etag = headerValue(answer.headers, 'ETag');
  if (condition === null || etag === undefined) return answer;
  const list = parseEntityTagList(condition);
  if (list === undefined || !noneMatchNames(list, etag)) return answer;
  const notModified = documentedAnswer(source, 304, { accept: null });
  return { ...notModified, headers: { ...notModified.headers, ETag: etag } };
}
