// Users and company clients of the caller's account: list and single reads.
import type { Handler } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import { findCompanyClient, findUser, listCompanyClients as readCompanyClients, listUsers as readUsers } from '../db/directory.js';
import { toCompanyClient, toUser } from '../db/mappers.js';
import { ApiError } from '../errors.js';
import { accountOf } from './caller.js';

export const listUsers: Handler<'listUsers', RequestContext> = async (_request, context) => {
  const users = await readUsers(context.db.db, accountOf(context));
  return { status: 200, body: { users: users.map(toUser) } };
};

export const getUser: Handler<'getUser', RequestContext> = async (request, context) => {
  const user = await findUser(context.db.db, accountOf(context), request.params.user_id);
  if (user === undefined) throw ApiError.notFound(`User ${request.params.user_id} not found.`);
  return { status: 200, body: { user: toUser(user) } };
};

export const listCompanyClients: Handler<'listCompanyClients', RequestContext> = async (_request, context) => {
  const clients = await readCompanyClients(context.db.db, accountOf(context));
  return { status: 200, body: { company_clients: clients.map(toCompanyClient) } };
};

export const getCompanyClient: Handler<'getCompanyClient', RequestContext> = async (request, context) => {
  const client = await findCompanyClient(context.db.db, accountOf(context), request.params.client_id);
  if (client === undefined) throw ApiError.notFound(`Company client ${request.params.client_id} not found.`);
  return { status: 200, body: { company_client: toCompanyClient(client) } };
};
