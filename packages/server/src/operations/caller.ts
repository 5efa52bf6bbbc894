// The account every handler works in. The HTTP layer sets `caller` for every operation that needs a
// token; its absence here is a wiring fault, answered as 401 rather than run without an account.
import type { RequestContext } from '../context.js';
import { ApiError } from '../errors.js';

export function accountOf(context: RequestContext): number {
  if (context.caller === undefined) throw new ApiError(401, 'unauthorized', 'The access token is invalid or expired.');
  return context.caller.accountId;
}

/** The path of a created resource, from the operation table's path template. */
export function locationOf(pathTemplate: string, id: number): string {
  return pathTemplate.replace(/\{[^}]+\}/, String(id));
}
