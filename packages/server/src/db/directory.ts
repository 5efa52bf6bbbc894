// Users and company clients of an account: reads only (the API offers no writes for them).
import { sql, type Kysely } from 'kysely';
import { compileOnly } from './compile-only.js';
import type { CompanyClientRow, DatabaseSchema, UserRow } from './schema.js';
import { templateOf } from './statement-template.js';

export function listUsers(db: Kysely<DatabaseSchema>, accountId: number): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export function findUser(db: Kysely<DatabaseSchema>, accountId: number, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst();
}

export function listCompanyClients(db: Kysely<DatabaseSchema>, accountId: number): Promise<CompanyClientRow[]> {
  return db.selectFrom('company_clients').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** Every invoice create and every delivery issue looks its client up: compiled once (statement-template.ts). */
const findCompanyClientStatement = templateOf(['accountId', 'clientId'], ({ accountId, clientId }) =>
  compileOnly.selectFrom('company_clients').selectAll().where('account_id', '=', sql<number>`${accountId}`).where('id', '=', sql<number>`${clientId}`),
);

export async function findCompanyClient(db: Kysely<DatabaseSchema>, accountId: number, clientId: number): Promise<CompanyClientRow | undefined> {
  const { rows } = await db.executeQuery(findCompanyClientStatement.bind({ accountId, clientId }));
  return rows[0];
}
