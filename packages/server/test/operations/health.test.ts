import { operationTable } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createHandlers } from '../../src/operations/index.js';
import { getHealth } from '../../src/operations/health.js';
import { openTestDatabase } from '../support/databases.js';
import { contextFor } from '../support/fixtures.js';

describe('getHealth', () => {
  it('answers 200 ok while PostgreSQL answers, 503 unavailable once it does not', async () => {
    const database = await openTestDatabase('postgres', { name: 'ops_health' });
    try {
      await expect(getHealth({ params: {}, query: {}, body: undefined }, contextFor(database, undefined))).resolves.toEqual({
        status: 200,
        body: { status: 'ok' },
      });
    } finally {
      await database.dispose();
    }
    await expect(getHealth({ params: {}, query: {}, body: undefined }, contextFor(database, undefined))).resolves.toEqual({
      status: 503,
      body: { status: 'unavailable' },
    });
  });

  it('answers 503 for a server that refuses connections', async () => {
    const database = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/postgres' });
    try {
      await expect(getHealth({ params: {}, query: {}, body: undefined }, contextFor(database, undefined))).resolves.toEqual({
        status: 503,
        body: { status: 'unavailable' },
      });
    } finally {
      await database.close();
    }
  });
});

describe('createHandlers', () => {
  it('has one handler for every operation of the spec', () => {
    const handlers = createHandlers();
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operationTable).sort());
    expect(Object.values(handlers).every((handler) => typeof handler === 'function')).toBe(true);
  });

  it('refuses to run an authenticated operation without a caller', async () => {
    const database = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/postgres' });
    try {
      await expect(createHandlers().listUsers({ params: {}, query: {}, body: undefined }, contextFor(database, undefined))).rejects.toMatchObject({
        status: 401,
      });
    } finally {
      await database.close();
    }
  });
});
