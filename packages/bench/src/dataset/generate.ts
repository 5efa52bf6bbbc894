// The data set, generated inside the database with set-based SQL (`generate_series`), never row by
// row from Node: a million invoices load in tens of seconds. Every value is derived from the row
// number through `hashint8extended` with a per-column seed, so the data set is the same on every run
// and on both engines, and the columns are independent of each other.
import type { DatasetSize } from '../profiles.js';
import { bigAccountShare } from '../profiles.js';
import type { SqlRunner } from './sql-runner.js';

/** Three years of invoices, ending on a fixed day so that reruns produce identical rows. */
export const datasetStart = '2023-11-01T00:00:00Z';
const datasetMilliseconds = 3 * 365 * 24 * 3600 * 1000;

/** Words of the `like` scenarios: one in about a quarter of the descriptions, one in 1 of 2,000. */
export const commonWord = 'consult';
export const rareWord = 'zeppelin';

/** `h(i, seed) mod m`, non-negative: a deterministic pseudo-random pick per row and column. */
function pick(row: string, seed: number, modulus: number): string {
  return `((hashint8extended(${row}, ${seed}) % ${modulus} + ${modulus}) % ${modulus})`;
}

const descriptions = [
  'Consulting services',
  'Software licence',
  'Hardware maintenance',
  'Support contract',
  'Consulting workshop',
  'Cloud hosting',
  'Training course',
  'Project management',
];

/** Accounts 1..n with fixed ids; account 1 is the big one. The identity sequence is moved past them. */
async function loadAccounts(sql: SqlRunner, size: DatasetSize): Promise<void> {
  await sql.query(
    `insert into accounts (id, name, default_currency, created_at)
     select a, 'Bench account ' || a, (array['CHF','EUR','USD','GBP'])[1 + (a - 1) % 4], $1::timestamptz
     from generate_series(1, $2::int) a`,
    [datasetStart, size.accounts],
  );
  await sql.query(`select setval(pg_get_serial_sequence('accounts', 'id'), $1::bigint)`, [size.accounts]);
  await sql.query(
    `insert into users (account_id, name, email, role, created_at)
     select a, 'User ' || a || '-' || u, 'user' || a || '-' || u || '@bench.example', (array['admin','accountant','viewer'])[u], $1::timestamptz
     from generate_series(1, $2::int) a cross join generate_series(1, 3) u
     order by a, u`,
    [datasetStart, size.accounts],
  );
}

/**
 * Clients, inserted account by account so that each account's clients hold consecutive ids: an
 * invoice then names one with arithmetic (`first_id + h mod n`) instead of a join per row.
 */
async function loadClients(sql: SqlRunner, size: DatasetSize): Promise<void> {
  const bigAccountClients = Math.round(size.clients * 0.88);
  await sql.query(
    `insert into company_clients (account_id, name, email, country, created_at)
     select account_id, 'Client ' || lpad(j::text, 5, '0') || ' ' || (array['AG','GmbH','SA','Ltd','Sàrl'])[1 + j % 5],
            'billing' || j || '@client.example', (array['CH','DE','FR','IT','AT','GB','US'])[1 + j % 7], $1::timestamptz
     from (
       select j, case when j <= $2::int then 1 else 2 + (j % ($4::int - 1)) end as account_id
       from generate_series(1, $3::int) j
     ) numbered
     order by account_id, j`,
    [datasetStart, bigAccountClients, size.clients, size.accounts],
  );
}

/** Each account's clients as a consecutive id range. */
const clientRanges = `(select account_id, min(id) as first_id, count(*) as n from company_clients group by account_id)`;

async function loadInvoices(sql: SqlRunner, size: DatasetSize): Promise<void> {
  const bigShare = Math.round(bigAccountShare * 1000);
  const step = Math.floor(datasetMilliseconds / size.invoices);
  const description = `(array[${descriptions.map((text) => `'${text}'`).join(',')}])[1 + ${pick('i', 5, descriptions.length)}]`;
  await sql.query(
    `insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date, description, created_at, updated_at)
     select r.account_id, 'INV-' || lpad(i::text, 7, '0'), c.id, c.name,
            ${pick('i', 2, 2_000_000)} / 100.0,
            case when ${pick('i', 4, 100)} < 60 then 'CHF' when ${pick('i', 4, 100)} < 85 then 'EUR' when ${pick('i', 4, 100)} < 95 then 'USD' else 'GBP' end,
            status,
            (created + interval '30 days')::date,
            case when ${pick('i', 6, 2000)} = 0 then 'Zeppelin hangar rental' else ${description} end || ' ' || to_char(created, 'YYYY-MM'),
            created,
            case when status = 'draft' then created else created + ${pick('i', 7, 30 * 24)} * interval '1 hour' end
     from generate_series(1, $1::int) i
     cross join lateral (select
       case when ${pick('i', 1, 1000)} < ${bigShare} then 1 else 2 + ${pick('i', 8, size.accounts - 1)} end as account_id,
       $2::timestamptz + (i::bigint * ${step}) * interval '1 millisecond' as created,
       case when ${pick('i', 3, 100)} < 50 then 'paid' when ${pick('i', 3, 100)} < 70 then 'sent'
            when ${pick('i', 3, 100)} < 80 then 'draft' when ${pick('i', 3, 100)} < 90 then 'overdue' else 'cancelled' end as status
     ) r
     join ${clientRanges} ranges on ranges.account_id = r.account_id
     join company_clients c on c.id = ranges.first_id + ${pick('i', 9, 1_000_000)} % ranges.n`,
    [size.invoices, datasetStart],
  );
}

/** Deliveries, half issued with one to three items each (totals computed like the service: rounded lines). */
async function loadDeliveries(sql: SqlRunner, size: DatasetSize): Promise<void> {
  const bigShare = Math.round(bigAccountShare * 1000);
  await sql.query(
    `insert into deliveries (account_id, delivery_nr, contact_id, delivery_date, status, created_at, updated_at)
     select r.account_id, 'LS-' || lpad(i::text, 6, '0'), ranges.first_id + ${pick('i', 11, 1_000_000)} % ranges.n,
            (r.created + interval '2 days')::date, case when i % 2 = 0 then 'issued' else 'draft' end, r.created, r.created
     from generate_series(1, $1::int) i
     cross join lateral (select
       case when ${pick('i', 10, 1000)} < ${bigShare} then 1 else 2 + ${pick('i', 12, size.accounts - 1)} end as account_id,
       $2::timestamptz + i * interval '3 hours' as created) r
     join ${clientRanges} ranges on ranges.account_id = r.account_id
     order by i`,
    [size.deliveries, datasetStart],
  );
  await sql.query(
    `insert into delivery_items (account_id, delivery_id, position, item_id, quantity, unit_price, total)
     select d.account_id, d.id, p, 1000 + ${pick('d.id * 8 + p', 13, 500)},
            q, u, round(q * u, 2)
     from deliveries d
     cross join generate_series(0, 2) p
     cross join lateral (select (1 + ${pick('d.id * 8 + p', 14, 20)})::numeric as q,
                                (${pick('d.id * 8 + p', 15, 100_000)} / 100.0)::numeric as u) v
     where d.status = 'issued' and p <= ${pick('d.id', 16, 3)}`,
  );
  await sql.query(
    `update deliveries d set total_amount = t.total
     from (select delivery_id, sum(total) as total from delivery_items group by delivery_id) t
     where t.delivery_id = d.id`,
  );
}

/** The counters behind generated numbers, moved past every loaded number so creates never collide. */
async function advanceCounters(sql: SqlRunner, size: DatasetSize): Promise<void> {
  await sql.query(`update accounts set next_invoice_number = $1::bigint, next_delivery_number = $2::bigint`, [size.invoices + 1, size.deliveries + 1]);
}

/** Loads the whole data set into empty tables. */
export async function generateDataset(sql: SqlRunner, size: DatasetSize): Promise<void> {
  await loadAccounts(sql, size);
  await loadClients(sql, size);
  await loadInvoices(sql, size);
  await loadDeliveries(sql, size);
  await advanceCounters(sql, size);
}
