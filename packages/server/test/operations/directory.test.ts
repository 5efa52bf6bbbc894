import { beforeAll, describe, expect, it } from 'vitest';
import { getCompanyClient, getUser, listCompanyClients, listUsers } from '../../src/operations/directory.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { contextFor, createAccount, type TestAccount } from '../support/fixtures.js';
import { refusal } from '../support/outcomes.js';

describe.each(engines)('users and company clients on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'ops_directory' });
  let mine: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    mine = await createAccount(database(), { clients: 3 });
    other = await createAccount(database(), { clients: 2 });
  });

  const context = (account: TestAccount) => contextFor(database(), account.accountId);

  it("lists only the account's users, by id, in the API shape", async () => {
    const answer = await listUsers({ params: {}, query: {}, body: undefined }, context(mine));
    expect(answer.status).toBe(200);
    if (answer.status !== 200) return;
    expect(answer.body.users.map((user) => user.id)).toEqual(mine.userIds);
    expect(Object.keys(answer.body.users[0]!).sort()).toEqual(['created_at', 'email', 'id', 'name', 'role']);
    expect(answer.body.users.map((user) => user.role)).toEqual(['admin', 'viewer']);
  });

  it("lists only the account's company clients, by id", async () => {
    const answer = await listCompanyClients({ params: {}, query: {}, body: undefined }, context(other));
    expect(answer.status === 200 && answer.body.company_clients.map((client) => client.id)).toEqual(other.clientIds);
    if (answer.status === 200) expect(Object.keys(answer.body.company_clients[0]!).sort()).toEqual(['country', 'created_at', 'email', 'id', 'name']);
  });

  it('reads one user and one client of the account', async () => {
    const user = await getUser({ params: { user_id: mine.userIds[1]! }, query: {}, body: undefined }, context(mine));
    expect(user.status === 200 && user.body.user.id).toBe(mine.userIds[1]);
    const client = await getCompanyClient({ params: { client_id: mine.clientIds[2]! }, query: {}, body: undefined }, context(mine));
    expect(client.status === 200 && client.body.company_client).toMatchObject({ id: mine.clientIds[2], country: 'CH' });
  });

  it("answers 404 for another account's user or client exactly like a missing one", async () => {
    const foreignUser = await refusal(getUser({ params: { user_id: other.userIds[0]! }, query: {}, body: undefined }, context(mine)));
    const missingUser = await refusal(getUser({ params: { user_id: 999_999 }, query: {}, body: undefined }, context(mine)));
    expect(foreignUser).toMatchObject({ status: 404, code: 'not_found' });
    expect(missingUser).toMatchObject({ status: 404, code: 'not_found' });
    const foreignClient = await refusal(getCompanyClient({ params: { client_id: other.clientIds[0]! }, query: {}, body: undefined }, context(mine)));
    expect(foreignClient).toMatchObject({ status: 404, code: 'not_found' });
  });
});
