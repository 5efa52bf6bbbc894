// Users and company clients of an account: reads only (the API offers no writes for them).
import type { Kysely } from 'kysely';
import type { CompanyClientRow, DatabaseSchema, UserRow } from './schema.js';

export function listUsers(db: Kysely<DatabaseSchema>, accountId: number): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export function findUser(db: Kysely<DatabaseSchema>, accountId: number, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst();
}

export function listCompanyClients(db: Kysely<DatabaseSchema>, accountId: number): Promise<CompanyClientRow[]> {
  return db.selectFrom('company_clients').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export function findCompanyClient(db: Kysely<DatabaseSchema>, accountId: number, clientId: number): Promise<CompanyClientRow | undefined> {
  return db.selectFrom('company_clients').selectAll().where('account_id', '=', accountId).where('id', '=', clientId).executeTakeFirst();
}
