// Demo data for development, the docs' examples and benchmarks: deterministic (a seeded PRNG and dates
// counted from a fixed epoch, never `now`), so two fresh databases hold the same rows. Account 1 holds
// most of it; account 2 exists so that account isolation has something to hide.
import { sql, type Transaction } from 'kysely';
import type { InvoiceStatus } from '@invoice-api/contract';
import { formatDeliveryNumber } from '../domain/delivery-rules.js';
import { formatInvoiceNumber } from '../domain/invoice-rules.js';
import { priceLines } from '../domain/money.js';
import type { Database } from './database.js';
import type { DatabaseSchema, NewInvoiceRow } from './schema.js';

/** Every seeded date counts back from here: 2026-01-01T00:00:00Z. */
export const seedEpoch = Date.UTC(2026, 0, 1);
const dayMs = 86_400_000;

/** mulberry32: a tiny, fast PRNG whose sequence depends only on its seed. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
const between = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

function weighted<T>(random: Random, entries: ReadonlyArray<readonly [T, number]>): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[entries.length - 1]![0];
}

interface AccountPlan {
  name: string;
  currency: string;
  users: ReadonlyArray<{ name: string; role: 'admin' | 'accountant' | 'viewer' }>;
  clients: number;
  invoices: number;
  deliveries: number;
}

const accountPlans: readonly AccountPlan[] = [
  {
    name: 'Alpenblick Trading AG',
    currency: 'CHF',
    users: [
      { name: 'Anna Keller', role: 'admin' },
      { name: 'Marco Rossi', role: 'accountant' },
      { name: 'Lea Brunner', role: 'accountant' },
      { name: 'Jonas Meier', role: 'viewer' },
    ],
    clients: 24,
    invoices: 4_500,
    deliveries: 60,
  },
  {
    name: 'Nordwind Handel GmbH',
    currency: 'EUR',
    users: [
      { name: 'Sophie Wagner', role: 'admin' },
      { name: 'Lukas Schmidt', role: 'viewer' },
    ],
    clients: 6,
    invoices: 500,
    deliveries: 10,
  },
];

const clientNames = [
  'Bergbahn Zermatt AG',
  'Café Central',
  'Datawerk GmbH',
  'Edelweiss Logistics',
  'Feldmann & Söhne',
  'Glarner Holzbau',
  'Helvetia Print',
  'Innotec Solutions',
  'Jura Uhren SA',
  'Kaiser Consulting',
  'Limmat Software',
  'Matterhorn Foods',
  'Nexus Medical',
  'Orion Engineering',
  'Pilatus Bikes',
  'Quellwasser AG',
  'Rhein Spedition',
  'Säntis Media',
  'Ticino Vini SA',
  'Urban Office',
  'Vierwald Reisen',
  'Weber Elektro',
  'Xenon Labs',
  'Zürichsee Marine',
  'Ostsee Fisch KG',
  'Hafen Kontor',
  'Baltic Timber',
  'Elbe Brauerei',
  'Moselgold Weine',
  'Spree Digital',
];
const countries = ['CH', 'CH', 'CH', 'DE', 'AT', 'FR', 'IT', 'LI'];
const descriptions = [
  'Consulting services',
  'Software licence renewal',
  'Website maintenance',
  'Hardware delivery: laptops',
  'Office supplies',
  'Annual support contract',
  'Cloud hosting',
  'Training workshop',
  'Logistics and freight',
  'Catering for company event',
  'Marketing campaign',
  'Data migration project',
  'Security audit',
  'Printing of brochures',
  'Spare parts',
  'Travel expenses',
  'Design of new logo',
  'Translation services',
  'Monthly retainer',
  'Equipment rental',
];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const slug = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');
const isoTimestamp = (ms: number): string => new Date(ms).toISOString();
const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Inserting in chunks keeps every statement under PostgreSQL's 65,535 parameter limit. */
const insertChunkRows = 1_000;

/** The demo data's PRNG seed: `pnpm start` and the stateful mock's default fixture use it. */
export const demoSeed = 20260101;
/** The demo data's sizes: the sums of the account plans. */
export const demoInvoices = accountPlans.reduce((sum, plan) => sum + plan.invoices, 0);
export const demoDeliveries = accountPlans.reduce((sum, plan) => sum + plan.deliveries, 0);

export interface SeedOptions {
  /** The PRNG's seed; the same seed and sizes give the same rows (ids, names, amounts, dates). */
  seed?: number;
  /** Invoices in all, shared between the accounts as in the demo data (9 to 1). */
  invoices?: number;
  /** Deliveries in all, shared likewise (6 to 1). */
  deliveries?: number;
}

/**
 * Fills an empty database with the demo data (or, with options, data of another seed or size, as
 * reproducible); does nothing when any account exists. Runs in one transaction, so a failure leaves
 * no half-seeded database behind.
 */
export async function seedIfEmpty(database: Database, options: SeedOptions = {}): Promise<boolean> {
  const existing = await database.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (existing !== undefined) return false;
  const plans = scaledPlans(options.invoices ?? demoInvoices, options.deliveries ?? demoDeliveries);
  await database.db.transaction().execute(async (trx) => {
    const random = createRandom(options.seed ?? demoSeed);
    for (const [index, plan] of plans.entries()) await seedAccount(trx, plan, index === 0 ? 0 : accountPlans[0]!.clients, random);
  });
  // Fresh statistics, so the planner picks the indexes (trigram ones included) from the first query.
  await sql`analyze`.execute(database.db);
  return true;
}

/** The account plans with their invoices and deliveries scaled to these totals; the first account takes the rounding. */
function scaledPlans(invoices: number, deliveries: number): AccountPlan[] {
  const share = (total: number, part: number, whole: number): number => Math.floor((total * part) / whole);
  const rest = accountPlans.slice(1).map((plan) => ({
    ...plan,
    invoices: share(invoices, plan.invoices, demoInvoices),
    deliveries: share(deliveries, plan.deliveries, demoDeliveries),
  }));
  const first = accountPlans[0]!;
  return [
    {
      ...first,
      invoices: invoices - rest.reduce((sum, plan) => sum + plan.invoices, 0),
      deliveries: deliveries - rest.reduce((sum, plan) => sum + plan.deliveries, 0),
    },
    ...rest,
  ];
}

async function seedAccount(trx: Transaction<DatabaseSchema>, plan: AccountPlan, clientOffset: number, random: Random): Promise<void> {
  const accountCreated = seedEpoch - 3 * 365 * dayMs - 30 * dayMs;
  const account = await trx
    .insertInto('accounts')
    .values({ name: plan.name, default_currency: plan.currency, created_at: isoTimestamp(accountCreated) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const domain = `${slug(plan.name).split('.')[0]}.example`;

  await trx
    .insertInto('users')
    .values(
      plan.users.map((user, index) => ({
        account_id: account.id,
        name: user.name,
        email: `${slug(user.name)}@${domain}`,
        role: user.role,
        created_at: isoTimestamp(accountCreated + index * dayMs),
      })),
    )
    .execute();

  const clients = await trx
    .insertInto('company_clients')
    .values(
      Array.from({ length: plan.clients }, (_, index) => {
        const name = clientNames[(clientOffset + index) % clientNames.length]!;
        return {
          account_id: account.id,
          name,
          email: `billing@${slug(name).replace(/\./g, '-')}.example`,
          country: pick(random, countries),
          created_at: isoTimestamp(accountCreated + (index + 5) * dayMs),
        };
      }),
    )
    .returning(['id', 'name'])
    .execute();

  const invoices = planInvoices(plan, account.id, clients, random);
  for (let start = 0; start < invoices.length; start += insertChunkRows) {
    await trx
      .insertInto('invoices')
      .values(invoices.slice(start, start + insertChunkRows))
      .execute();
  }

  await seedDeliveries(trx, plan, account.id, clients, random);
  await trx
    .updateTable('accounts')
    .set({ next_invoice_number: invoices.length + 1, next_delivery_number: plan.deliveries + 1 })
    .where('id', '=', account.id)
    .execute();
}

function planInvoices(plan: AccountPlan, accountId: number, clients: ReadonlyArray<{ id: number; name: string }>, random: Random): NewInvoiceRow[] {
  const span = 3 * 365 * dayMs;
  // Creation times in ascending order, so invoice numbers grow with time as they would in real use.
  const createdTimes = Array.from({ length: plan.invoices }, () => seedEpoch - Math.floor(random() * span)).sort((a, b) => a - b);
  return createdTimes.map((created, index) => {
    const client = pick(random, clients);
    const age = (seedEpoch - created) / dayMs;
    const due = created + pick(random, [10, 14, 30, 30, 30, 60]) * dayMs;
    // Old invoices are mostly settled; recent ones are still open.
    const status: InvoiceStatus =
      age > 90
        ? weighted(random, [
            ['paid', 80],
            ['cancelled', 8],
            ['overdue', 10],
            ['sent', 2],
          ] as const)
        : weighted(random, [
            ['draft', 25],
            ['sent', 40],
            ['paid', 25],
            ['overdue', 5],
            ['cancelled', 5],
          ] as const);
    const currency = weighted(random, [
      [plan.currency, 70],
      ['EUR', 12],
      ['USD', 10],
      ['GBP', 5],
      ['CHF', 3],
    ] as const);
    const cents = between(random, 5_000, 2_500_000) * (random() < 0.1 ? 10 : 1);
    const monthName = months[new Date(created).getUTCMonth()]!;
    const base = pick(random, descriptions);
    const description = random() < 0.5 ? `${base} ${monthName} ${new Date(created).getUTCFullYear()}` : base;
    const updated = status === 'draft' ? created : Math.min(seedEpoch, created + between(random, 1, 45) * dayMs + between(random, 0, 86_399_999));
    return {
      account_id: accountId,
      invoice_number: formatInvoiceNumber(index + 1),
      client_id: client.id,
      client_name: client.name,
      amount: (cents / 100).toFixed(2),
      currency,
      status,
      due_date: isoDate(due),
      description,
      created_at: isoTimestamp(created),
      updated_at: isoTimestamp(updated),
    };
  });
}

async function seedDeliveries(
  trx: Transaction<DatabaseSchema>,
  plan: AccountPlan,
  accountId: number,
  clients: ReadonlyArray<{ id: number }>,
  random: Random,
): Promise<void> {
  for (let index = 0; index < plan.deliveries; index += 1) {
    const created = seedEpoch - (plan.deliveries - index) * 5 * dayMs;
    const issued = index % 2 === 0;
    // Drafts sometimes have no lines yet; an issued delivery always has 1 to 5.
    const lineCount = issued ? between(random, 1, 5) : between(random, 0, 3);
    const priced = priceLines(
      Array.from({ length: lineCount }, () => ({
        item_id: between(random, 1000, 1200),
        quantity: between(random, 1, 40_000) / 1000,
        unit_price: between(random, 100, 5_000_000) / 10_000,
      })),
    );
    const delivery = await trx
      .insertInto('deliveries')
      .values({
        account_id: accountId,
        delivery_nr: formatDeliveryNumber(index + 1),
        contact_id: pick(random, clients).id,
        delivery_date: issued || random() < 0.5 ? isoDate(created + 2 * dayMs) : null,
        status: issued ? 'issued' : 'draft',
        total_amount: priced.totalAmount,
        created_at: isoTimestamp(created),
        updated_at: isoTimestamp(issued ? created + 2 * dayMs : created),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (priced.lines.length > 0) {
      await trx
        .insertInto('delivery_items')
        .values(priced.lines.map((line, position) => ({ account_id: accountId, delivery_id: delivery.id, position, ...line })))
        .execute();
    }
  }
}

/** Row counts, for logs and tests. */
export async function countRows(database: Database): Promise<Record<keyof DatabaseSchema, number>> {
  const result = await sql<Record<keyof DatabaseSchema, number>>`
    select (select count(*) from accounts) as accounts, (select count(*) from users) as users,
           (select count(*) from company_clients) as company_clients, (select count(*) from invoices) as invoices,
           (select count(*) from deliveries) as deliveries, (select count(*) from delivery_items) as delivery_items`.execute(database.db);
  return result.rows[0]!;
}
