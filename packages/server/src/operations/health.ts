// The health check: whether the database answers. The HTTP layer adds Retry-After to the 503.
import type { Handler } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';

export const getHealth: Handler<'getHealth', RequestContext> = async (_request, context) => {
  return (await context.db.ping()) ? { status: 200, body: { status: 'ok' } } : { status: 503, body: { status: 'unavailable' } };
};
