import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { findInvoice } from '../../src/db/invoices.js';
import { compileOnly, rawStatement } from '../../src/db/compile-only.js';
import { placeholders, statementTemplate, TemplateCache, templateOf, valuesOf, withPlaceholders } from '../../src/db/statement-template.js';
import { engines, useTestDatabase } from '../support/databases.js';

describe.each(engines)('statement templates on %s', (engine) => {
  const database = useTestDatabase(engine, { seed: true, name: 'db_statement_template' });

  it('binds each value where its placeholder was built in, and runs as bound parameters', async () => {
    const [low, high] = placeholders(2);
    const template = statementTemplate(
      database()
        .db.selectFrom('invoices')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('id', '>=', sql<number>`${low}`)
        .where('id', '<=', sql<number>`${high}`),
      2,
    );
    const count = async (from: number, to: number): Promise<number> => {
      const { rows } = await database().db.executeQuery(template.bind([from, to]));
      return rows[0]?.total ?? Number.NaN;
    };
    const direct = async (from: number, to: number): Promise<number> => {
      const row = await database()
        .db.selectFrom('invoices')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('id', '>=', from)
        .where('id', '<=', to)
        .executeTakeFirstOrThrow();
      return row.total;
    };
    const bound = template.bind([31, 77]);
    expect(bound.parameters).toEqual([31, 77]);
    expect(bound.sql).not.toMatch(/31|77/);
    for (const [from, to] of [
      [1, 5],
      [2, 2],
      [5, 1],
    ] as const) {
      expect(await count(from, to)).toBe(await direct(from, to));
    }
  });

  it('refuses a value bound while building: it would be sent with every later request of the shape', () => {
    const [invoiceId] = placeholders(1);
    const query = database().db.selectFrom('invoices').select('id').where('account_id', '=', 1).where('id', '=', sql<number>`${invoiceId}`);
    expect(() => statementTemplate(query, 1)).toThrow(/parameter 1 is a value, not a placeholder/);
  });

  it('refuses a binding with too few or too many values', () => {
    const [value] = placeholders(1);
    const template = statementTemplate(database().db.selectNoFrom(sql<number>`${value}`.as('value')), 1);
    expect(() => template.bind([])).toThrow(/takes 1 values, not 0/);
    expect(() => template.bind([1, 2])).toThrow(/takes 1 values, not 2/);
  });

  it('withPlaceholders and valuesOf visit the same values in the same order: placeholder n stands for value n', async () => {
    interface Pair {
      name: string;
      first: unknown;
      rest: unknown[];
    }
    const mapPair = (pair: Pair, each: (value: unknown) => unknown): Pair => ({ name: pair.name, first: each(pair.first), rest: pair.rest.map(each) });
    const pair: Pair = { name: 'kept', first: 'a', rest: ['b', 'c'] };
    const slots = withPlaceholders(mapPair, pair);
    expect(slots.name).toBe('kept');
    // Built in another order than visited: the binding still puts each value in its own place.
    const template = statementTemplate(
      database().db.selectNoFrom([
        sql<string>`${slots.rest[1]}::text`.as('x'),
        sql<string>`${slots.first}::text`.as('y'),
        sql<string>`${slots.rest[0]}::text`.as('z'),
      ]),
      3,
    );
    const { rows } = await database().db.executeQuery(template.bind(valuesOf(mapPair, pair)));
    expect(rows).toEqual([{ x: 'c', y: 'a', z: 'b' }]);
  });

  it('templateOf binds each value by its name, whatever order the statement uses them in', async () => {
    const template = templateOf(['first', 'second', 'third'], ({ first, second, third }) =>
      rawStatement(sql<{ x: string; y: string; z: string }>`select ${third}::text as x, ${first}::text as y, ${second}::text as z`),
    );
    const { rows } = await database().db.executeQuery(template.bind({ second: 'b', third: 'c', first: 'a' }));
    expect(rows).toEqual([{ x: 'c', y: 'a', z: 'b' }]);
    // A value left out is the compiler's error: at run time the binding would send null in its place.
    // @ts-expect-error 'third' is missing
    expect(() => template.bind({ first: 'a', second: 'b' })).not.toThrow();
  });

  it('findInvoice reads the invoice of the account it is asked for, and no other account', async () => {
    const { rows } = await sql<{ id: number; account_id: number }>`select id, account_id from invoices order by id limit 2`.execute(database().db);
    for (const row of rows) {
      expect((await findInvoice(database().db, row.account_id, row.id))?.id).toBe(row.id);
      expect(await findInvoice(database().db, row.account_id + 1_000, row.id)).toBeUndefined();
    }
  });
});

describe('compileOnly', () => {
  it('compiles, and refuses to run what it built rather than answer no rows', async () => {
    const query = compileOnly.selectFrom('invoices').select('id').where('id', '=', 1);
    expect(query.compile().sql).toBe('select "id" from "invoices" where "id" = $1');
    await expect(query.execute()).rejects.toThrow(/compiles statements; run them on the database's Kysely/);
  });
});

describe('TemplateCache', () => {
  it('builds a shape once, keeps at most maxEntries, and drops the least recently used first', () => {
    const cache = new TemplateCache<string>(2);
    const builds: string[] = [];
    const get = (shape: string): string =>
      cache.get(shape, () => {
        builds.push(shape);
        return `templates of ${shape}`;
      });
    expect(get('a')).toBe('templates of a');
    get('b');
    get('a');
    expect(builds).toEqual(['a', 'b']);
    // 'b' is now the least recently used: a third shape drops it, not 'a'.
    get('c');
    expect(cache.size).toBe(2);
    get('a');
    expect(builds).toEqual(['a', 'b', 'c']);
    get('b');
    expect(builds).toEqual(['a', 'b', 'c', 'b']);
  });
});
